// Tests that one cell's arithmetic, read from the trace, reproduces the trace's weight.
#include "approx.h"
#include "pipelinecases.h"

#include "attention/cellarithmetic.h"
#include "testmain.h"

#include <QTest>

#include <cmath>

using namespace headlens;

class TestCellArithmetic : public QObject
{
    Q_OBJECT

private slots:
    void reproducesEveryWeight_data() { test::addPipelineCases(); }
    void reproducesEveryWeight();
    void maskedCellHasWeightZero();
    void vectorsAreTheHeadsRows();
};

// For every cell of every head: sum(q * k) is the raw score, times the scale is the scaled
// score, and exp(s - max) / sum is the weight the trace recorded.
void TestCellArithmetic::reproducesEveryWeight()
{
    QFETCH(QString, caseName);
    const test::PipelineCase c = test::makePipelineCase(caseName);
    const Trace &t = *c.trace;
    for (int64_t b = 0; b < t.batch(); ++b)
        for (int64_t head = 0; head < t.heads(); ++head)
            for (int64_t i = 0; i < t.queryLength(); ++i)
                for (int64_t j = 0; j < t.keyLength(); ++j) {
                    const CellArithmetic a = explainCell(t, b, head, i, j);
                    HL_COMPARE_NEAR(a.dot, a.rawScore, 1e-4, 1e-5);
                    HL_COMPARE_NEAR(a.dot * a.scaleFactor, a.scaledScore, 1e-4, 1e-5);
                    HL_COMPARE_NEAR(a.recomputedWeight,
                                    t.tensor(keys::attentionWeights).at({b, head, i, j}), 1e-4,
                                    1e-6);
                    double rowSum = 0.0;
                    for (double e : a.rowExp)
                        rowSum += e / a.rowExpSum;
                    HL_COMPARE_NEAR(rowSum, 1.0, 0.0, 1e-9);
                }
}

void TestCellArithmetic::maskedCellHasWeightZero()
{
    const test::PipelineCase c = test::makePipelineCase("causal");
    const CellArithmetic a = explainCell(*c.trace, 0, 1, 2, 5); // key after query: masked
    QVERIFY(a.masked);
    QVERIFY(std::isinf(a.row[5]) && a.row[5] < 0);
    QCOMPARE(a.recomputedWeight, 0.0);
    QCOMPARE(a.weight, 0.0f);
    QCOMPARE(int(a.row.size()), 10);
}

void TestCellArithmetic::vectorsAreTheHeadsRows()
{
    const test::PipelineCase c = test::makePipelineCase("untied");
    const CellArithmetic a = explainCell(*c.trace, 0, 2, 3, 7);
    QCOMPARE(int(a.q.size()), 5); // d_k
    QCOMPARE(a.q[4], c.trace->tensor(keys::qHeads).at({0, 2, 3, 4}));
    QCOMPARE(a.k[0], c.trace->tensor(keys::kHeads).at({0, 2, 7, 0}));
    QCOMPARE(a.products[1], a.q[1] * a.k[1]);
}

HEADLENS_TEST_APPLESS_MAIN(TestCellArithmetic)
#include "tst_cellarithmetic.moc"
