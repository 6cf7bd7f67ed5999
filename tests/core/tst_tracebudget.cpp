// Tests that computeTrace refuses impossible settings with a message and keeps to its memory
// budget.
#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"
#include "testmain.h"
#include "util/inputerror.h"

#include <QTest>

using namespace headlens;

namespace {

AttentionInput textInput(const AttentionConfig &config, const std::vector<std::string> &texts)
{
    return InputBuilder::fromTexts(config, texts);
}

Trace traceFor(const AttentionConfig &config, const std::vector<std::string> &texts)
{
    AttentionInput input = textInput(config, texts);
    const auto weights = AttentionWeights::initialize(config, int(input.kvInputWidth()));
    return computeTrace(config, std::move(input), weights);
}

} // namespace

class TestTraceBudget : public QObject
{
    Q_OBJECT

private slots:
    void badInputIsRefusedWithMessage_data();
    void badInputIsRefusedWithMessage();
    void memoryBudgetIsEnforced();
    void memoryEstimateMatchesTheTrace_data();
    void memoryEstimateMatchesTheTrace();
};

void TestTraceBudget::badInputIsRefusedWithMessage_data()
{
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not divisible") << 10 << 3 << "cannot be split evenly over 3 heads";
    QTest::newRow("zero heads") << 8 << 0 << "number of heads must be between 1";
    QTest::newRow("negative width") << -4 << 2 << "d_model must be between 1";
}

void TestTraceBudget::badInputIsRefusedWithMessage()
{
    QFETCH(int, dModel);
    QFETCH(int, heads);
    QFETCH(QString, expected);
    AttentionConfig config;
    config.dModel = dModel;
    config.heads = heads;
    AttentionConfig valid;
    valid.dModel = 8;
    valid.heads = 2;
    AttentionInput input = textInput(valid, {"The bank was robbed"});
    try {
        computeTrace(config, input, AttentionWeights::initialize(valid, 8));
        QFAIL("an impossible configuration was accepted");
    } catch (const InputError &error) {
        QVERIFY2(QString(error.what()).contains(expected), error.what());
    }
}

void TestTraceBudget::memoryBudgetIsEnforced()
{
    AttentionConfig config;
    config.dModel = 64;
    config.heads = 16;
    config.memoryBudgetBytes = 1 << 20;
    std::string longText;
    for (int i = 0; i < 300; ++i)
        longText += "word" + std::to_string(i) + " ";
    AttentionInput input = textInput(AttentionConfig{}, {longText});
    config.dModel = 512;
    try {
        computeTrace(config, input, AttentionWeights::initialize(config, 512));
        QFAIL("a trace over the budget was computed");
    } catch (const InputError &error) {
        const QString message = error.what();
        QVERIFY2(message.contains("MiB") && message.contains("n=300") &&
                     message.contains("memory budget of 1.0 MiB"),
                 error.what());
    }
}

void TestTraceBudget::memoryEstimateMatchesTheTrace_data()
{
    QTest::addColumn<bool>("causal");
    QTest::addColumn<bool>("padding");
    QTest::addColumn<bool>("dropout");
    QTest::addColumn<int>("scale");
    QTest::newRow("plain") << false << false << false << int(ScaleMode::InvSqrtDk);
    QTest::newRow("unscaled") << false << false << false << int(ScaleMode::None);
    QTest::newRow("causal") << true << false << false << int(ScaleMode::InvSqrtDk);
    QTest::newRow("padding") << false << true << false << int(ScaleMode::InvSqrtDk);
    QTest::newRow("dropout") << false << false << true << int(ScaleMode::InvSqrtDk);
}

// The budget check must neither refuse traces that fit nor admit ones that do not.
void TestTraceBudget::memoryEstimateMatchesTheTrace()
{
    QFETCH(bool, causal);
    QFETCH(bool, padding);
    QFETCH(bool, dropout);
    QFETCH(int, scale);
    AttentionConfig config;
    config.dModel = 16;
    config.heads = 4;
    config.causal = causal;
    config.scale = ScaleMode(scale);
    config.dropout = dropout ? 0.1f : 0.0f;
    config.training = dropout;
    std::vector<std::string> texts{"The tired robot dropped the heavy gear because it broke"};
    if (padding)
        texts.push_back("The bank was robbed");
    const Trace trace = traceFor(config, texts);
    const int64_t estimate =
        estimateTraceBytes(config, trace.batch(), trace.queryLength(), trace.keyLength(), padding);
    QCOMPARE(estimate, trace.bytes());
}

HEADLENS_TEST_APPLESS_MAIN(TestTraceBudget)
#include "tst_tracebudget.moc"
