// computeTrace against torch.nn.MultiheadAttention: outputs and per-head weights saved by PyTorch.
#include "approx.h"

#include "attention/attentionforward.h"
#include "attention/weightsfile.h"
#include "io/npzarchive.h"
#include "testmain.h"

#include <QDir>
#include <QTest>

using namespace headlens;

namespace {

const QString kGolden = QStringLiteral(HEADLENS_TEST_DATA "/golden/");
// float32 through two matrix products and a softmax: PyTorch and Eigen sum in other orders.
constexpr double kRelative = 1e-4;
constexpr double kAbsolute = 1e-6;

using Entries = std::vector<std::pair<std::string, Tensor>>;

const Tensor *find(const Entries &entries, const std::string &name)
{
    for (const auto &entry : entries) {
        if (entry.first == name)
            return &entry.second;
    }
    return nullptr;
}

Tensor named(const Tensor &t, std::initializer_list<const char *> names)
{
    std::vector<Axis> axes;
    int axis = 0;
    for (const char *name : names)
        axes.push_back({name, t.shape().size(axis++)});
    return t.view(Shape(axes));
}

/// Labels "t0", "t1", ... for the unpadded keys of each sequence (all n_kv without a mask).
std::vector<std::vector<std::string>> labels(const Tensor &padding, int64_t b, int64_t n)
{
    std::vector<std::vector<std::string>> result(static_cast<size_t>(b));
    for (int64_t s = 0; s < b; ++s) {
        for (int64_t j = 0; j < n; ++j) {
            if (padding.isEmpty() || padding.data()[s * n + j] == 0.0f)
                result[static_cast<size_t>(s)].push_back("t" + std::to_string(j));
        }
    }
    return result;
}

/// The AttentionInput PyTorch saw: query, key_value (cross only), key_padding_mask.
AttentionInput inputOf(const Entries &entries)
{
    AttentionInput input;
    input.x = named(*find(entries, "query"), {"b", "n", "d_in"});
    if (const Tensor *kv = find(entries, "key_value"))
        input.xKv = named(*kv, {"b", "n_kv", "d_kv_in"});
    if (const Tensor *padding = find(entries, "key_padding_mask"))
        input.keyPaddingMask = named(*padding, {"b", "n_kv"});
    const int64_t b = input.batch();
    if (input.isCrossAttention()) {
        input.tokens = labels(Tensor(), b, input.queryLength());
        input.kvTokens = labels(input.keyPaddingMask, b, input.keyLength());
    } else {
        input.tokens = labels(input.keyPaddingMask, b, input.queryLength());
    }
    return input;
}

} // namespace

class TestPyTorchGolden : public QObject
{
    Q_OBJECT

private slots:
    void matchesPyTorch_data();
    void matchesPyTorch();
};

void TestPyTorchGolden::matchesPyTorch_data()
{
    QTest::addColumn<QString>("file");
    // One row per case of scripts/make_goldens.py; a missing file fails the row.
    for (const char *name : {"self_bias", "self_nobias", "causal", "padding", "causal_padding",
                             "cross_padding", "cross_kdim"})
        QTest::newRow(name) << kGolden + name + ".npz";
}

void TestPyTorchGolden::matchesPyTorch()
{
    QFETCH(QString, file);
    const Entries entries = NpzArchive::read(file.toStdString());
    const LoadedWeights loaded = WeightsFile::fromEntries(entries, file.toStdString());
    for (const char *name : {"query", "num_heads", "causal", "output", "attn_weights"})
        QVERIFY2(find(entries, name), name);

    AttentionConfig config;
    config.dModel = loaded.dModel;
    config.heads = static_cast<int>(find(entries, "num_heads")->data()[0]);
    config.bias = loaded.hasBias;
    config.causal = find(entries, "causal")->data()[0] != 0.0f;
    const AttentionInput input = inputOf(entries);
    QCOMPARE(input.kvInputWidth(), int64_t(loaded.kvInputWidth));
    QVERIFY(!loaded.mismatch(config));

    const Trace trace = computeTrace(config, input, loaded.weights);
    HL_COMPARE_TENSORS_NEAR(trace.tensor(keys::attentionWeights), *find(entries, "attn_weights"),
                            kRelative, kAbsolute);
    // The steps in between, under the trace's names: projections, scaled scores before the mask,
    // per-head context, output.
    for (TraceKey step : {keys::q, keys::k, keys::v, keys::scores, keys::context, keys::output}) {
        QVERIFY2(find(entries, step.name()), step.name());
        HL_COMPARE_TENSORS_NEAR(trace.tensor(step), *find(entries, step.name()), kRelative,
                                kAbsolute);
    }
}

HEADLENS_TEST_APPLESS_MAIN(TestPyTorchGolden)
#include "tst_pytorchgolden.moc"
