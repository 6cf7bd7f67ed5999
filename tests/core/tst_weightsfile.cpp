// Tests of WeightsFile: PyTorch state_dicts read as PyTorch lays them out, round trips, refusals.
#include "approx.h"
#include "errorof.h"

#include "attention/weightsfile.h"
#include "io/npzarchive.h"
#include "testmain.h"
#include "util/inputerror.h"

#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace headlens;
using headlens::test::errorOf;

using Entries = std::vector<std::pair<std::string, Tensor>>;
Q_DECLARE_METATYPE(Entries)

namespace {

const QString kGolden = QStringLiteral(HEADLENS_TEST_DATA "/golden/");

Tensor zeros(std::initializer_list<int64_t> sizes)
{
    std::vector<Axis> axes;
    for (int64_t size : sizes)
        axes.push_back({"d", size});
    return Tensor(Shape(axes));
}

const Tensor &entry(const Entries &entries, const std::string &name)
{
    for (const auto &e : entries) {
        if (e.first == name)
            return e.second;
    }
    qFatal("no entry %s", name.c_str());
}

/// Rows [first, first + count) of a state-dict matrix, as PyTorch's in_proj_weight.chunk(3).
RowMatrix rowsOf(const Tensor &t, int64_t first, int64_t count)
{
    return ConstRowMatrixMap(t.data(), t.shape().size(0), t.shape().size(1))
        .middleRows(first, count);
}

Vector valuesOf(const Tensor &t, int64_t first, int64_t count)
{
    return Eigen::Map<const Vector>(t.data(), t.numel()).segment(first, count);
}

} // namespace

class TestWeightsFile : public QObject
{
    Q_OBJECT

private slots:
    void readsPyTorchStateDicts_data();
    void readsPyTorchStateDicts();
    void roundTrip_data();
    void roundTrip();
    void refusesBadStateDicts_data();
    void refusesBadStateDicts();
    void loadErrorNamesTheFile();
    void nonFiniteEntriesAreNamedWithTheirCounts();
};

void TestWeightsFile::readsPyTorchStateDicts_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("fused");
    QTest::addColumn<bool>("hasBias");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("kvWidth");
    QTest::addColumn<int>("heads");
    // The cases of scripts/make_goldens.py.
    QTest::newRow("fused, bias") << "self_bias.npz" << true << true << 8 << 8 << 2;
    QTest::newRow("fused, no bias") << "self_nobias.npz" << true << false << 8 << 8 << 2;
    QTest::newRow("separate (kdim 10)") << "cross_kdim.npz" << false << true << 12 << 10 << 3;
}

void TestWeightsFile::readsPyTorchStateDicts()
{
    QFETCH(QString, file);
    QFETCH(bool, fused);
    QFETCH(bool, hasBias);
    QFETCH(int, dModel);
    QFETCH(int, kvWidth);
    QFETCH(int, heads);
    const std::string path = (kGolden + file).toStdString();
    const LoadedWeights loaded = WeightsFile::load(path);
    QCOMPARE(loaded.fused, fused);
    QCOMPARE(loaded.hasBias, hasBias);
    QCOMPARE(loaded.dModel, dModel);
    QCOMPARE(loaded.inputWidth, dModel);
    QCOMPARE(loaded.kvInputWidth, kvWidth);
    QCOMPARE(loaded.queryKeyWidth, dModel);
    QCOMPARE(loaded.valueWidth, dModel);

    // PyTorch's layout: in_proj_weight = [W_Q; W_K; W_V], in_proj_bias = [b_Q; b_K; b_V].
    const Entries raw = NpzArchive::read(path);
    const AttentionWeights &w = loaded.weights;
    const int e = dModel;
    if (fused) {
        QVERIFY(w.wQ == rowsOf(entry(raw, "in_proj_weight"), 0, e));
        QVERIFY(w.wK == rowsOf(entry(raw, "in_proj_weight"), e, e));
        QVERIFY(w.wV == rowsOf(entry(raw, "in_proj_weight"), 2 * e, e));
    } else {
        QVERIFY(w.wQ == rowsOf(entry(raw, "q_proj_weight"), 0, e));
        QVERIFY(w.wK == rowsOf(entry(raw, "k_proj_weight"), 0, e));
        QVERIFY(w.wV == rowsOf(entry(raw, "v_proj_weight"), 0, e));
    }
    QVERIFY(w.wO == rowsOf(entry(raw, "out_proj.weight"), 0, e));
    if (hasBias) {
        QVERIFY(w.bQ == valuesOf(entry(raw, "in_proj_bias"), 0, e));
        QVERIFY(w.bK == valuesOf(entry(raw, "in_proj_bias"), e, e));
        QVERIFY(w.bV == valuesOf(entry(raw, "in_proj_bias"), 2 * e, e));
        QVERIFY(w.bO == valuesOf(entry(raw, "out_proj.bias"), 0, e));
    } else {
        QVERIFY(w.bQ.isZero(0) && w.bK.isZero(0) && w.bV.isZero(0) && w.bO.isZero(0));
    }

    AttentionConfig config;
    config.dModel = dModel;
    config.heads = heads;
    QVERIFY(!loaded.mismatch(config));
    config.dModel = dModel * 2;
    const std::string message = loaded.mismatch(config).value_or("");
    QVERIFY2(message.find("d_model=" + std::to_string(2 * dModel)) != std::string::npos,
             message.c_str());
}

void TestWeightsFile::roundTrip_data()
{
    QTest::addColumn<int>("kvWidth");
    QTest::addColumn<bool>("tied");
    QTest::addColumn<bool>("withBias");
    QTest::addColumn<bool>("fused");
    QTest::newRow("fused, bias") << 8 << true << true << true;
    QTest::newRow("fused, no bias") << 8 << true << false << true;
    QTest::newRow("kv width 5: separate") << 5 << true << true << false;
    QTest::newRow("d_k != d_v: separate") << 8 << false << true << false;
}

void TestWeightsFile::roundTrip()
{
    QFETCH(int, kvWidth);
    QFETCH(bool, tied);
    QFETCH(bool, withBias);
    QFETCH(bool, fused);
    AttentionConfig config;
    config.dModel = 8;
    config.heads = 2;
    config.tied = tied;
    config.dK = 3;
    config.dV = 5;
    config.seed = 7;
    AttentionWeights w = AttentionWeights::initialize(config, kvWidth);
    if (withBias) { // initialize() leaves biases zero; make them visible
        w.bQ = Vector::LinSpaced(w.bQ.size(), 0.1f, 0.9f);
        w.bK = Vector::LinSpaced(w.bK.size(), -0.5f, 0.5f);
        w.bV = Vector::LinSpaced(w.bV.size(), 1.0f, 2.0f);
        w.bO = Vector::LinSpaced(w.bO.size(), -2.0f, -1.0f);
    }
    QTemporaryDir dir;
    const std::string path = dir.filePath("w.npz").toStdString();
    WeightsFile::save(path, w, withBias);
    const LoadedWeights back = WeightsFile::load(path);
    QCOMPARE(back.fused, fused);
    QCOMPARE(back.hasBias, withBias);
    QCOMPARE(back.kvInputWidth, kvWidth);
    QVERIFY(!back.mismatch(config));
    const AttentionWeights &b = back.weights;
    QVERIFY(b.wQ == w.wQ && b.wK == w.wK && b.wV == w.wV && b.wO == w.wO);
    QVERIFY(b.bQ == w.bQ && b.bK == w.bK && b.bV == w.bV && b.bO == w.bO);
}

void TestWeightsFile::refusesBadStateDicts_data()
{
    QTest::addColumn<Entries>("entries");
    QTest::addColumn<QString>("problem");
    const Tensor inProj = zeros({24, 8}), outProj = zeros({8, 8});
    const Tensor q = zeros({8, 8}), k = zeros({8, 6});
    QTest::newRow("add_bias_kv") << Entries{{"in_proj_weight", inProj},
                                            {"out_proj.weight", outProj},
                                            {"bias_k", zeros({1, 1, 8})}}
                                 << "entry 'bias_k' means the layer was built with add_bias_kv";
    QTest::newRow("no out_proj.weight")
        << Entries{{"in_proj_weight", inProj}, {"query", zeros({1, 2, 8})}}
        << "entry 'out_proj.weight' is missing; the file holds in_proj_weight, query";
    QTest::newRow("no projections")
        << Entries{{"out_proj.weight", outProj}} << "no attention weights";
    QTest::newRow("not a matrix") << Entries{{"in_proj_weight", zeros({24, 8, 1})},
                                             {"out_proj.weight", outProj}}
                                  << "entry 'in_proj_weight' has shape (24, 8, 1)";
    QTest::newRow("rows not 3 * E")
        << Entries{{"in_proj_weight", zeros({10, 8})}, {"out_proj.weight", outProj}}
        << "entry 'in_proj_weight' has 10 rows";
    QTest::newRow("fused and separate")
        << Entries{{"in_proj_weight", inProj}, {"q_proj_weight", q}, {"out_proj.weight", outProj}}
        << "appears together with q/k/v_proj_weight";
    QTest::newRow("k rows != q rows") << Entries{{"q_proj_weight", q},
                                                 {"k_proj_weight", zeros({4, 6})},
                                                 {"v_proj_weight", k},
                                                 {"out_proj.weight", outProj}}
                                      << "entry 'k_proj_weight' has shape (4, 6)";
    QTest::newRow("kdim != vdim") << Entries{{"q_proj_weight", q},
                                             {"k_proj_weight", k},
                                             {"v_proj_weight", zeros({8, 7})},
                                             {"out_proj.weight", outProj}}
                                  << "kdim must equal vdim";
    QTest::newRow("out_proj columns != value rows")
        << Entries{{"in_proj_weight", inProj}, {"out_proj.weight", zeros({8, 6})}}
        << "entry 'out_proj.weight' has shape (8, 6) but W_V has 8 rows";
    QTest::newRow("in_proj_bias length") << Entries{{"in_proj_weight", inProj},
                                                    {"out_proj.weight", outProj},
                                                    {"in_proj_bias", zeros({8})}}
                                         << "entry 'in_proj_bias' has shape (8) but must be (24,)";
    QTest::newRow("out_proj.bias length")
        << Entries{{"in_proj_weight", inProj},
                   {"out_proj.weight", outProj},
                   {"out_proj.bias", zeros({1, 8})}}
        << "entry 'out_proj.bias' has shape (1, 8) but must be (8,)";
}

void TestWeightsFile::refusesBadStateDicts()
{
    QFETCH(Entries, entries);
    QFETCH(QString, problem);
    const QString message = errorOf([&] { WeightsFile::fromEntries(entries, "w.npz"); });
    QVERIFY2(message.startsWith("w.npz: "), qPrintable(message));
    QVERIFY2(message.contains(problem), qPrintable(message));
}

void TestWeightsFile::loadErrorNamesTheFile()
{
    const QString path = kGolden + "no_such_weights.npz";
    const QString message = errorOf([&] { WeightsFile::load(path.toStdString()); });
    QVERIFY2(message.startsWith("Cannot open " + path + " as .npz"), qPrintable(message));
}

// A PyTorch layer's weights with two NaN in W_O and one infinity in the bias still load (the
// views show where the damage lands), with one warning per damaged entry, naming it.
void TestWeightsFile::nonFiniteEntriesAreNamedWithTheirCounts()
{
    Entries entries = NpzArchive::read((kGolden + "self_bias.npz").toStdString());
    Tensor &out = const_cast<Tensor &>(entry(entries, "out_proj.weight"));
    out.data()[0] = std::numeric_limits<float>::quiet_NaN();
    out.data()[5] = std::numeric_limits<float>::quiet_NaN();
    const_cast<Tensor &>(entry(entries, "in_proj_bias")).data()[2] =
        -std::numeric_limits<float>::infinity();
    const LoadedWeights loaded = WeightsFile::fromEntries(entries, "layer.npz");
    QCOMPARE(loaded.dModel, 8);
    QVERIFY(std::isnan(loaded.weights.wO(0, 0)));
    QCOMPARE(loaded.warnings.size(), size_t(2));
    QStringList warnings;
    for (const std::string &w : loaded.warnings)
        warnings << QString::fromStdString(w);
    warnings.sort();
    // out_proj.weight is (8, 8); in_proj_bias (24,).
    QVERIFY2(warnings[0].startsWith("layer.npz: 'in_proj_bias' holds 1 infinite value among its "
                                    "24;"),
             qPrintable(warnings[0]));
    QVERIFY2(warnings[1].startsWith("layer.npz: 'out_proj.weight' holds 2 NaN values among its "
                                    "64;"),
             qPrintable(warnings[1]));
    QVERIFY(WeightsFile::fromEntries(NpzArchive::read((kGolden + "self_bias.npz").toStdString()),
                                     "layer.npz")
                .warnings.empty());
}

HEADLENS_TEST_APPLESS_MAIN(TestWeightsFile)
#include "tst_weightsfile.moc"
