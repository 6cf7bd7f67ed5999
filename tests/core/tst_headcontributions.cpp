// Tests that the heads' shares of the output projection add up to the output.
#include "approx.h"
#include "pipelinecases.h"

#include "attention/headcontributions.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;

class TestHeadContributions : public QObject
{
    Q_OBJECT

private slots:
    void sharesSumToOutput_data() { test::addPipelineCases(); }
    void sharesSumToOutput();
    void normsAreTheSharesLengths();
};

void TestHeadContributions::sharesSumToOutput()
{
    QFETCH(QString, caseName);
    const test::PipelineCase c = test::makePipelineCase(caseName);
    const Trace &t = *c.trace;
    for (int64_t b = 0; b < t.batch(); ++b) {
        const RowMatrix sum = sumOfContributions(t, b, c.weights.bO);
        const ConstRowMatrixMap output = t.tensor(keys::output).matrix({b});
        QCOMPARE(sum.rows(), output.rows());
        QCOMPARE(sum.cols(), Eigen::Index(t.config.dModel));
        HL_COMPARE_NEAR((sum - output).cwiseAbs().maxCoeff(), 0.0, 0.0, 1e-5);
        // Without b_O the sum misses the bias: the check can fail.
        const RowMatrix noBias = sumOfContributions(t, b, Vector::Zero(t.config.dModel));
        QVERIFY((noBias - output).cwiseAbs().maxCoeff() > 1e-3);
    }
}

void TestHeadContributions::normsAreTheSharesLengths()
{
    const test::PipelineCase c = test::makePipelineCase("batch-padding");
    const RowMatrix norms = contributionNorms(*c.trace, 1);
    QCOMPARE(norms.rows(), Eigen::Index(10));
    QCOMPARE(norms.cols(), Eigen::Index(3));
    const ConstRowMatrixMap share = c.trace->tensor(keys::headContributions).matrix({1, 2});
    HL_COMPARE_NEAR(norms(3, 2), share.row(3).norm(), 1e-6, 0.0);
    QVERIFY(norms(3, 2) > 0.0f);
}

HEADLENS_TEST_APPLESS_MAIN(TestHeadContributions)
#include "tst_headcontributions.moc"
