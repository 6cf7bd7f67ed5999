// Tests of checkPositionShift: RoPE's scores survive any shift of every position, q_rot does not.
#include "attention/inputbuilder.h"
#include "attention/positionshift.h"
#include "coremetatypes.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;

namespace {

struct Layer
{
    Trace trace;
    AttentionWeights weights;
};

Layer ropeLayer(AttentionPositions positions, int heads, int kvHeads, bool causal)
{
    AttentionConfig config;
    config.dModel = 64;
    config.heads = heads;
    config.kvHeads = kvHeads;
    config.causal = causal;
    config.attentionPositions = positions;
    AttentionInput input = InputBuilder::fromTexts(
        config, {"The tired robot dropped the heavy gear because it broke", "The bank was robbed"});
    Layer layer{Trace(), AttentionWeights::initialize(config, 64)};
    layer.trace = computeTrace(config, std::move(input), layer.weights);
    return layer;
}

} // namespace

class TestPositionShift : public QObject
{
    Q_OBJECT

private slots:
    void scoresStayWhilePositionsMove_data()
    {
        QTest::addColumn<AttentionPositions>("positions");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<int>("shift");
        const auto half = AttentionPositions::Rope, pairs = AttentionPositions::RopeInterleaved;
        QTest::newRow("split-half, GQA 8/2, +1") << half << 8 << 2 << true << 1;
        QTest::newRow("split-half, MHA, +100") << half << 4 << 0 << false << 100;
        QTest::newRow("interleaved, MQA, +1000") << pairs << 4 << 1 << true << 1000;
        QTest::newRow("interleaved, GQA 8/4, +40000") << pairs << 8 << 4 << false << 40000;
    }
    void scoresStayWhilePositionsMove()
    {
        QFETCH(AttentionPositions, positions);
        QFETCH(int, heads);
        QFETCH(int, kvHeads);
        QFETCH(bool, causal);
        QFETCH(int, shift);
        const Layer layer = ropeLayer(positions, heads, kvHeads, causal);
        const PositionShiftCheck check = checkPositionShift(layer.trace, layer.weights, shift);
        QCOMPARE(check.shift, shift);
        QVERIFY2(check.scoresDifference < 1e-4,
                 qPrintable(QString::number(check.scoresDifference)));
        // The comparison is between two different passes: the rotated queries moved a lot.
        QVERIFY2(check.rotatedQueryDifference > 0.1,
                 qPrintable(QString::number(check.rotatedQueryDifference)));
    }

    void noShiftIsTheSameTrace()
    {
        const Layer layer = ropeLayer(AttentionPositions::Rope, 8, 2, true);
        const PositionShiftCheck check = checkPositionShift(layer.trace, layer.weights, 0);
        QCOMPARE(check.scoresDifference, 0.0);
        QCOMPARE(check.rotatedQueryDifference, 0.0);
    }

    // The measure sees real changes: two seeds' scores differ far beyond rounding.
    void largestDifferenceSeesARealChange()
    {
        const Layer a = ropeLayer(AttentionPositions::Rope, 4, 0, false);
        AttentionConfig config = a.trace.config;
        config.seed = 1;
        AttentionInput input = a.trace.input;
        const Trace b =
            computeTrace(config, std::move(input), AttentionWeights::initialize(config, 64));
        QVERIFY(largestDifference(a.trace, b, keys::scores) > 0.01);
        QCOMPARE(largestDifference(a.trace, a.trace, keys::scores), 0.0);
    }
};

HEADLENS_TEST_APPLESS_MAIN(TestPositionShift)
#include "tst_positionshift.moc"
