// tst_logsumexp: the one log-sum-exp against hand-computed values, overflow and its NaN policy.
#include "linalg/logsumexp.h"
#include "testmain.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace headlens;

class TestLogSumExp : public QObject
{
    Q_OBJECT

private slots:
    void handComputed()
    {
        Eigen::Vector3f x(1.0f, 2.0f, 3.0f);
        // log(e + e^2 + e^3) = 3 + log(1 + e^-1 + e^-2)
        QVERIFY(std::abs(logSumExp(x) - 3.4076059644443806) < 1e-12);
        // softmax([0, ln 3])[1] = 3 / (1 + 3)
        Eigen::RowVector2f y(0.0f, float(std::log(3.0)));
        QVERIFY(std::abs(softmaxProbability(y, 1) - 0.75) < 1e-7);
    }
    // Shifted by the maximum: logits of 1000 would overflow exp() unshifted.
    void largeLogitsDoNotOverflow()
    {
        Eigen::Vector2f x(1000.0f, 1000.0f);
        QVERIFY(std::abs(logSumExp(x) - (1000.0 + std::log(2.0))) < 1e-9);
        QVERIFY(std::abs(softmaxProbability(x, 0) - 0.5) < 1e-12);
    }
    void nanAndInfinitePolicy()
    {
        const float inf = std::numeric_limits<float>::infinity();
        Eigen::Vector3f masked(-inf, 0.0f, -inf);
        QCOMPARE(logSumExp(masked), 0.0);
        QCOMPARE(softmaxProbability(masked, 1), 1.0);
        QCOMPARE(softmaxProbability(masked, 0), 0.0);
        Eigen::Vector2f allMasked(-inf, -inf);
        QCOMPARE(logSumExp(allMasked), -double(inf));
        Eigen::Vector3f withNan(0.0f, std::numeric_limits<float>::quiet_NaN(), 1.0f);
        QVERIFY(std::isnan(logSumExp(withNan)));
        QVERIFY(std::isnan(softmaxProbability(withNan, 2)));
        Eigen::Vector2f withInf(0.0f, inf);
        QCOMPARE(logSumExp(withInf), double(inf));
        QCOMPARE(logSumExp(Eigen::VectorXf()), -double(inf));
    }
    // The sum in double: 150,000 float logits (a vocabulary) against a long double reference.
    void vocabularyKeepsItsDigits()
    {
        Eigen::VectorXf x(150000);
        long double sum = 0.0L;
        for (Eigen::Index i = 0; i < x.size(); ++i) {
            x(i) = float(std::sin(0.001 * double(i)) * 4.0);
            sum += std::exp((long double)x(i));
        }
        QVERIFY(std::abs(logSumExp(x) - double(std::log(sum))) < 1e-12);
        QVERIFY(std::abs(softmaxFromLogSum(2.0, 2.0 + std::log(4.0)) - 0.25) < 1e-15);
    }
};

HEADLENS_TEST_APPLESS_MAIN(TestLogSumExp)
#include "tst_logsumexp.moc"
