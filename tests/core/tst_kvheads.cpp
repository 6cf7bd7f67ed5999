// Tests of the K/V heads setting: validation, weights, Hugging Face files and the weights policy.
#include "approx.h"

#include "attention/attentionconfig.h"
#include "attention/attentionweights.h"
#include "attention/weightsfile.h"
#include "io/npzarchive.h"
#include "session/weightspolicy.h"
#include "testmain.h"
#include "util/inputerror.h"

#include <QTest>

#include <functional>

using namespace headlens;

namespace {

const std::string kGqaGolden = HEADLENS_TEST_DATA "/golden/gqa_h8_kv2.npz";

using Entries = std::vector<std::pair<std::string, Tensor>>;

std::string failureOf(const Entries &entries)
{
    try {
        WeightsFile::fromEntries(entries, "w.npz");
    } catch (const InputError &e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestKvHeads : public QObject
{
    Q_OBJECT

private slots:
    void validationOffersDivisors_data();
    void validationOffersDivisors();
    void otherNewSettingsAreChecked_data();
    void otherNewSettingsAreChecked();
    void namesAndEquality();
    void weightsFollowTheKvHeads();
    void readsHuggingFaceNames();
    void groupedWeightsRoundTrip();
    void refusesBadHuggingFaceFiles();
    void policyTakesTheGroupFromTheFile();
};

void TestKvHeads::validationOffersDivisors_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<QList<int>>("fixes"); // empty: valid
    QTest::newRow("0 = as many as heads") << 8 << 0 << QList<int>{};
    QTest::newRow("MHA") << 8 << 8 << QList<int>{};
    QTest::newRow("GQA") << 8 << 2 << QList<int>{};
    QTest::newRow("MQA") << 8 << 1 << QList<int>{};
    QTest::newRow("3 of 8") << 8 << 3 << QList<int>{2, 4};
    QTest::newRow("5 of 12") << 12 << 5 << QList<int>{4, 6};
    QTest::newRow("more than heads") << 8 << 16 << QList<int>{8};
    QTest::newRow("negative") << 8 << -1 << QList<int>{1};
}

void TestKvHeads::validationOffersDivisors()
{
    QFETCH(int, heads);
    QFETCH(int, kvHeads);
    QFETCH(QList<int>, fixes);
    AttentionConfig config;
    config.dModel = 96;
    config.heads = heads;
    config.kvHeads = kvHeads;
    const auto problem = config.validate();
    QCOMPARE(problem.has_value(), !fixes.isEmpty());
    if (!problem)
        return;
    QCOMPARE(problem->field, std::string("kv_heads"));
    QList<int> offered;
    for (const ConfigFix &fix : problem->fixes) {
        QCOMPARE(fix.field, std::string("kv_heads"));
        offered << fix.value;
    }
    QCOMPARE(offered, fixes);
}

void TestKvHeads::otherNewSettingsAreChecked_data()
{
    QTest::addColumn<QString>("setting");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QList<int>>("fixes");
    QTest::newRow("RoPE, d_model 12 over 4 heads") << "rope tied"
                                                   << "heads" << QList<int>{3, 6, 8, 16};
    QTest::newRow("RoPE, d_k 5") << "rope untied"
                                 << "d_k" << QList<int>{4, 6};
    QTest::newRow("ALiBi, d_k 3 is fine") << "alibi tied"
                                          << "" << QList<int>{};
    QTest::newRow("theta 1") << "theta"
                             << "rope_theta" << QList<int>{10000};
    QTest::newRow("window -1") << "window"
                               << "window" << QList<int>{0};
    QTest::newRow("offset -1") << "offset"
                               << "rope_position_offset" << QList<int>{0};
}

void TestKvHeads::otherNewSettingsAreChecked()
{
    QFETCH(QString, setting);
    QFETCH(QString, field);
    QFETCH(QList<int>, fixes);
    AttentionConfig config;
    config.dModel = 12;
    config.heads = 4;
    config.attentionPositions = setting.startsWith("alibi")  ? AttentionPositions::Alibi
                                : setting.startsWith("rope") ? AttentionPositions::Rope
                                                             : AttentionPositions::None;
    if (setting.endsWith("untied")) {
        config.tied = false;
        config.dK = 5;
    }
    if (setting == "theta")
        config.ropeTheta = 1.0f;
    if (setting == "window")
        config.window = -1;
    if (setting == "offset")
        config.ropePositionOffset = -1;
    const auto problem = config.validate();
    QCOMPARE(problem.has_value(), !field.isEmpty());
    if (!problem)
        return;
    QCOMPARE(QString::fromStdString(problem->field), field);
    QList<int> offered;
    for (const ConfigFix &fix : problem->fixes)
        offered << fix.value;
    QCOMPARE(offered, fixes);
}

void TestKvHeads::namesAndEquality()
{
    for (AttentionPositions p : {AttentionPositions::None, AttentionPositions::Rope,
                                 AttentionPositions::RopeInterleaved, AttentionPositions::Alibi})
        QCOMPARE(attentionPositionsFromString(toString(p)), std::optional(p));
    QCOMPARE(toString(AttentionPositions::RopeInterleaved), std::string("rope-interleaved"));
    QVERIFY(!attentionPositionsFromString("rotary"));
    const AttentionConfig base;
    QCOMPARE(base.kvHeadCount(), base.heads);
    const std::function<void(AttentionConfig &)> changes[] = {
        [](AttentionConfig &c) { c.kvHeads = 2; },
        [](AttentionConfig &c) { c.window = 4; },
        [](AttentionConfig &c) { c.ropePositionOffset = 3; },
        [](AttentionConfig &c) { c.ropeTheta = 500000.0f; },
        [](AttentionConfig &c) { c.attentionPositions = AttentionPositions::Alibi; },
    };
    for (const auto &change : changes) {
        AttentionConfig other = base;
        change(other);
        QVERIFY(other != base);
    }
}

void TestKvHeads::weightsFollowTheKvHeads()
{
    AttentionConfig config;
    config.dModel = 32;
    config.heads = 8;
    config.kvHeads = 2;
    const AttentionWeights w = AttentionWeights::initialize(config, 32);
    QCOMPARE(w.wQ.rows(), Eigen::Index(32));
    QCOMPARE(w.wK.rows(), Eigen::Index(8)); // 2 K/V heads of d_k = 4
    QCOMPARE(w.wV.rows(), Eigen::Index(8));
    QCOMPARE(w.wO.cols(), Eigen::Index(32));
    QCOMPARE(w.bK.size(), Eigen::Index(8));
    QCOMPARE(w.parameterCount(false), int64_t(32 * 32 * 2 + 8 * 32 * 2));
    // Separate projections, each xavier-uniform over its own shape.
    const float bound = std::sqrt(6.0f / float(32 + 8));
    QVERIFY(w.wK.cwiseAbs().maxCoeff() <= bound && w.wK.cwiseAbs().maxCoeff() > 0.5f * bound);
    QVERIFY(!w.mismatch(config, 32));
    config.kvHeads = 4;
    const std::string message = w.mismatch(config, 32).value_or("");
    QVERIFY2(message.find("W_K (k_proj_weight) has shape (8, 32)") == 0, message.c_str());
    QVERIFY2(message.find("h_kv=4 needs (16, 32)") != std::string::npos, message.c_str());
}

void TestKvHeads::readsHuggingFaceNames()
{
    const LoadedWeights loaded = WeightsFile::load(kGqaGolden);
    QVERIFY(loaded.huggingFaceNames && !loaded.fused && loaded.hasBias);
    QCOMPARE(loaded.dModel, 32);
    QCOMPARE(loaded.queryKeyWidth, 32);
    QCOMPARE(loaded.keyWidth, 8);
    QCOMPARE(loaded.kvValueWidth, 8);
    QCOMPARE(loaded.valueWidth, 32);
    QCOMPARE(loaded.queryHeadsPerKvHead(), 4);
    for (const auto &[name, tensor] : NpzArchive::read(kGqaGolden)) {
        const Eigen::Map<const Vector> values(tensor.data(), tensor.numel());
        if (name == "k_proj.weight") // (8, 32), row-major like the file
            QVERIFY(Eigen::Map<const Vector>(loaded.weights.wK.data(), 8 * 32) == values);
        if (name == "o_proj.bias")
            QVERIFY(loaded.weights.bO == values);
    }
}

void TestKvHeads::groupedWeightsRoundTrip()
{
    AttentionConfig config;
    config.dModel = 16;
    config.heads = 4;
    config.kvHeads = 1;
    AttentionWeights w = AttentionWeights::initialize(config, 16);
    w.bK.setConstant(0.5f);
    const auto entries = WeightsFile::toEntries(w, true);
    std::vector<std::string> names;
    for (const auto &entry : entries)
        names.push_back(entry.first);
    QCOMPARE(names, (std::vector<std::string>{"q_proj.weight", "q_proj.bias", "k_proj.weight",
                                              "k_proj.bias", "v_proj.weight", "v_proj.bias",
                                              "o_proj.weight", "o_proj.bias"}));
    const LoadedWeights back = WeightsFile::fromEntries(entries, "saved.npz");
    QVERIFY(back.weights.wK == w.wK && back.weights.wO == w.wO && back.weights.bK == w.bK);
    QCOMPARE(back.queryHeadsPerKvHead(), 4);
}

void TestKvHeads::refusesBadHuggingFaceFiles()
{
    Entries entries = NpzArchive::read(kGqaGolden);
    Entries noOutput;
    for (const auto &entry : entries)
        if (entry.first != "o_proj.weight")
            noOutput.push_back(entry);
    QVERIFY(failureOf(noOutput).find("w.npz: entry 'o_proj.weight' is missing") == 0);
    Entries oddKeys;
    for (const auto &entry : entries)
        if (entry.first == "k_proj.weight")
            oddKeys.emplace_back(entry.first, Tensor(Shape{{"d0", 5}, {"d1", 32}}));
        else if (entry.first != "k_proj.bias")
            oddKeys.push_back(entry);
    QVERIFY2(failureOf(oddKeys).find("has 5 rows (h_kv*d_k), which do not divide") !=
                 std::string::npos,
             failureOf(oddKeys).c_str());
    Entries mixed = entries;
    mixed.emplace_back("in_proj_weight", Tensor(Shape{{"d0", 96}, {"d1", 32}}));
    QVERIFY(failureOf(mixed).find("keep only one set of names") != std::string::npos);
}

// h / h_kv is in the file; the heads are the person's. 8 heads read 2 K/V heads, 4 read 1, and
// 6 are refused naming the file.
void TestKvHeads::policyTakesTheGroupFromTheFile()
{
    const LoadedWeights loaded = WeightsFile::load(kGqaGolden);
    AttentionConfig config;
    config.heads = 8;
    config = WeightsPolicy::adopt(loaded, config, ChosenSettings::none());
    QCOMPARE(config.dModel, 32);
    QCOMPARE(config.kvHeads, 2);
    WeightsPolicy::check(loaded, config, kGqaGolden);
    config.heads = 4;
    QCOMPARE(WeightsPolicy::adopt(loaded, config, ChosenSettings::none()).kvHeads, 1);
    config.heads = 6;
    config.kvHeads = 0;
    const AttentionConfig six = WeightsPolicy::adopt(loaded, config, ChosenSettings::none());
    QCOMPARE(six.kvHeads, 0);
    try {
        WeightsPolicy::check(loaded, six, kGqaGolden);
        QFAIL("6 heads cannot share 8 rows of K in groups of 4");
    } catch (const InputError &e) {
        const std::string message = e.what();
        QVERIFY2(message.find(kGqaGolden + " holds grouped-query weights") == 0, e.what());
        QVERIFY2(message.find("Use 4 or 8 heads") != std::string::npos, e.what());
    }
    ChosenSettings chosen;
    config.heads = 8;
    config.kvHeads = 4; // chosen, and wrong for the file: the shapes say so
    QCOMPARE(WeightsPolicy::adopt(loaded, config, chosen).kvHeads, 4);
    QVERIFY_THROWS_EXCEPTION(InputError, WeightsPolicy::check(loaded, config, kGqaGolden));
}

HEADLENS_TEST_APPLESS_MAIN(TestKvHeads)
#include "tst_kvheads.moc"
