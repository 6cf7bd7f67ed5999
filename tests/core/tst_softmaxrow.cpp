// tst_softmaxrow: the one row softmax, float and double, against hand values and its -kInf/NaN
// policy.
#include "linalg/softmaxrow.h"

#include "approx.h"
#include "testmain.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace headlens;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// softmax in long double, one exp at a time: the reference the packet code is held to.
std::vector<double> naiveSoftmax(const std::vector<double> &x)
{
    long double top = -INFINITY, sum = 0.0L;
    for (double v : x)
        top = std::max<long double>(top, v);
    for (double v : x)
        sum += std::exp((long double)v - top);
    std::vector<double> p;
    for (double v : x)
        p.push_back(double(std::exp((long double)v - top) / sum));
    return p;
}

/// A NaN in `expected` asks for a NaN, a 0 for exactly 0 (a masked key); else isClose.
template <typename S>
QByteArray entriesMismatch(const std::vector<S> &actual, const std::vector<double> &expected,
                           double rel)
{
    if (actual.size() != expected.size())
        return "sizes differ";
    for (size_t j = 0; j < actual.size(); ++j) {
        const double a = double(actual[j]), e = expected[j];
        const bool ok = std::isnan(e) ? std::isnan(a)
                        : e == 0.0    ? a == 0.0
                                      : headlens::test::isClose(a, e, rel, 0.0);
        if (!ok)
            return "entry " + QByteArray::number(qulonglong(j)) +
                   headlens::test::describeMismatch(a, e, "");
    }
    return {};
}

bool sameOrBothNan(double a, double b, double rel)
{
    return (std::isnan(a) && std::isnan(b)) || a == b || headlens::test::isClose(a, b, rel, 0.0);
}

template <typename S>
void checkRow(const std::vector<double> &in, const std::vector<double> &expected, double max,
              double logNormalizer, double rel)
{
    const std::vector<S> x(in.begin(), in.end());
    std::vector<S> out(x.size(), S(-1));
    const SoftmaxRowSums<S> sums = softmaxRow(x.data(), out.data(), int64_t(x.size()));
    const QByteArray why = entriesMismatch(out, expected, rel);
    QVERIFY2(why.isEmpty(), why.constData());
    QVERIFY2(sameOrBothNan(double(sums.max), double(S(max)), 0.0),
             headlens::test::describeMismatch(sums.max, max, "max").constData());
    QVERIFY2(
        sameOrBothNan(sums.logNormalizer, logNormalizer, rel),
        headlens::test::describeMismatch(sums.logNormalizer, logNormalizer, "log Z").constData());
}

} // namespace

class TestSoftmaxRow : public QObject
{
    Q_OBJECT

private slots:
    void policy_data();
    void policy();
    void longRowsMatchTheReference_data();
    void longRowsMatchTheReference();
    void inPlaceAndOffsetGiveTheSameBits();
    void expShiftedRowSumsTheExps();
};

void TestSoftmaxRow::policy_data()
{
    QTest::addColumn<std::vector<double>>("in");
    QTest::addColumn<std::vector<double>>("expected");
    QTest::addColumn<double>("max");
    QTest::addColumn<double>("logNormalizer");

    // e^(x - 3) / (e^-2 + e^-1 + 1); log Z = log(1 + e^-1 + e^-2)
    QTest::newRow("three logits") << std::vector<double>{1, 2, 3}
                                  << std::vector<double>{0.09003057317038046, 0.24472847105479767,
                                                         0.6652409557748219}
                                  << 3.0 << 0.40760596444438035;
    // Masked keys get exactly 0: [0, ln 3] share 1 : 3.
    QTest::newRow("masked keys") << std::vector<double>{-kInf, 0, -kInf, std::log(3.0)}
                                 << std::vector<double>{0, 0.25, 0, 0.75} << std::log(3.0)
                                 << std::log(4.0 / 3.0);
    QTest::newRow("every key masked: zeros, not NaN")
        << std::vector<double>{-kInf, -kInf, -kInf} << std::vector<double>{0, 0, 0} << -kInf
        << -kInf;
    QTest::newRow("empty row") << std::vector<double>{} << std::vector<double>{} << -kInf << -kInf;
    QTest::newRow("a NaN makes the row NaN")
        << std::vector<double>{0, kNaN, 1} << std::vector<double>{kNaN, kNaN, kNaN} << kNaN << kNaN;
    QTest::newRow("a NaN beside masked keys is not a masked row")
        << std::vector<double>{-kInf, kNaN} << std::vector<double>{kNaN, kNaN} << kNaN << kNaN;
    QTest::newRow("+kInf makes the row NaN (kInf - kInf)")
        << std::vector<double>{0, kInf} << std::vector<double>{kNaN, kNaN} << kInf << kNaN;
    QTest::newRow("logits of 1e4 do not overflow")
        << std::vector<double>{1e4, 1e4} << std::vector<double>{0.5, 0.5} << 1e4 << std::log(2.0);
    QTest::newRow("one logit") << std::vector<double>{-7} << std::vector<double>{1} << -7.0 << 0.0;
}

void TestSoftmaxRow::policy()
{
    QFETCH(std::vector<double>, in);
    QFETCH(std::vector<double>, expected);
    QFETCH(double, max);
    QFETCH(double, logNormalizer);
    checkRow<float>(in, expected, max, logNormalizer, 1e-6);
    checkRow<double>(in, expected, max, logNormalizer, 1e-14);
}

void TestSoftmaxRow::longRowsMatchTheReference_data()
{
    QTest::addColumn<int>("n");
    // Every tail length of a 16-float (AVX-512) packet, and rows of many packets.
    for (int n : {1, 2, 7, 8, 15, 16, 17, 31, 33, 100, 1000})
        QTest::newRow(QByteArray::number(n).constData()) << n;
}

void TestSoftmaxRow::longRowsMatchTheReference()
{
    QFETCH(int, n);
    std::vector<double> x;
    for (int j = 0; j < n; ++j)
        x.push_back(j % 3 == 2 ? -kInf : std::sin(0.7 * j) * 5.0);
    const std::vector<double> expected = naiveSoftmax(x);
    double top = -kInf;
    long double sum = 0.0L;
    for (double v : x)
        top = std::max(top, v);
    for (double v : x)
        sum += std::exp((long double)v - top);
    checkRow<float>(x, expected, top, double(std::log(sum)), 2e-6);
    checkRow<double>(x, expected, top, double(std::log(sum)), 1e-13);
}

// The attention kernel's trace and its lean pass hold one row at different addresses; the
// weights must agree to the bit, and a row written over itself too.
void TestSoftmaxRow::inPlaceAndOffsetGiveTheSameBits()
{
    const int n = 45;
    std::vector<float> first(n), reference(n);
    for (int j = 0; j < n; ++j)
        first[size_t(j)] = float(std::cos(1.3 * j) * 3.0);
    softmaxRow(first.data(), reference.data(), n);
    for (int offset = 1; offset < 17; ++offset) {
        std::vector<float> buffer(size_t(n + offset), 0.0f);
        std::copy(first.begin(), first.end(), buffer.begin() + offset);
        softmaxRow(buffer.data() + offset, buffer.data() + offset, n);
        for (int j = 0; j < n; ++j)
            QVERIFY2(buffer[size_t(offset + j)] == reference[size_t(j)],
                     QByteArray("offset ") + QByteArray::number(offset) + ", entry " +
                         QByteArray::number(j));
    }
}

void TestSoftmaxRow::expShiftedRowSumsTheExps()
{
    const double x[] = {0.0, -kInf, 1.0, 2.0, -1.0};
    double out[5];
    const double sum = expShiftedRow(x, out, 5, 2.0, true);
    QCOMPARE(out[1], 0.0);
    HL_COMPARE_NEAR(out[3], 1.0, 1e-15, 0.0);
    HL_COMPARE_NEAR(out[0], std::exp(-2.0), 1e-14, 0.0);
    HL_COMPARE_NEAR(sum, std::exp(-2.0) + std::exp(-1.0) + 1.0 + std::exp(-3.0), 1e-14, 0.0);
}

HEADLENS_TEST_APPLESS_MAIN(TestSoftmaxRow)
#include "tst_softmaxrow.moc"
