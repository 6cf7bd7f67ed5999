// estimateTraceBytes with K/V heads, RoPE, ALiBi and windows: exactly what the trace then holds.
#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;

class TestVariantBudget : public QObject
{
    Q_OBJECT

private slots:
    void estimateMatchesTheTrace_data();
    void estimateMatchesTheTrace();
};

void TestVariantBudget::estimateMatchesTheTrace_data()
{
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<QString>("positions");
    QTest::addColumn<int>("window");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<bool>("unscaled");
    QTest::newRow("GQA 4/2") << 2 << "none" << 0 << false << false;
    QTest::newRow("MQA, causal") << 1 << "none" << 0 << true << false;
    QTest::newRow("RoPE") << 4 << "rope" << 0 << true << false;
    QTest::newRow("interleaved RoPE, GQA") << 2 << "rope-interleaved" << 0 << false << false;
    QTest::newRow("ALiBi") << 4 << "alibi" << 0 << true << false;
    QTest::newRow("ALiBi, unscaled") << 4 << "alibi" << 0 << false << true;
    QTest::newRow("window 3, bidirectional") << 4 << "none" << 3 << false << false;
    QTest::newRow("window as long as the text") << 4 << "none" << 10 << false << false;
    QTest::newRow("everything") << 2 << "rope" << 4 << true << true;
}

// As tst_tracebudget: the budget check must neither refuse traces that fit nor admit ones that
// do not, so the estimate is the trace's size to the byte.
void TestVariantBudget::estimateMatchesTheTrace()
{
    QFETCH(int, kvHeads);
    QFETCH(QString, positions);
    QFETCH(int, window);
    QFETCH(bool, causal);
    QFETCH(bool, unscaled);
    AttentionConfig config;
    config.dModel = 16;
    config.heads = 4;
    config.kvHeads = kvHeads;
    config.attentionPositions = *attentionPositionsFromString(positions.toStdString());
    config.window = window;
    config.causal = causal;
    config.scale = unscaled ? ScaleMode::None : ScaleMode::InvSqrtDk;
    AttentionInput input = InputBuilder::fromTexts(
        config, {"The tired robot dropped the heavy gear because it broke"});
    const AttentionWeights weights = AttentionWeights::initialize(config, 16);
    const Trace trace = computeTrace(config, std::move(input), weights);
    QCOMPARE(estimateTraceBytes(config, 1, 10, 10), trace.bytes());
}

HEADLENS_TEST_APPLESS_MAIN(TestVariantBudget)
#include "tst_variantbudget.moc"
