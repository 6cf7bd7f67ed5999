// approx.h: the one tolerance helper the tests share; failures print both values and the error.
#pragma once

#include <QTest>

#include <cmath>

namespace headlens::test {

/// |actual - expected| <= abs + rel * |expected|, in the style of numpy.isclose.
inline bool isClose(double actual, double expected, double rel, double abs)
{
    if (std::isnan(actual) || std::isnan(expected))
        return false;
    if (std::isinf(expected))
        return actual == expected;
    return std::abs(actual - expected) <= abs + rel * std::abs(expected);
}

inline QByteArray describeMismatch(double actual, double expected, const char *where)
{
    return QByteArray(where) + ": actual " + QByteArray::number(actual, 'g', 9) + ", expected " +
           QByteArray::number(expected, 'g', 9) + ", error " +
           QByteArray::number(std::abs(actual - expected), 'g', 3);
}

/// Every element of two float arrays close (isClose); otherwise the element that misses its
/// tolerance by the most, with both values. Empty when all are close.
inline QByteArray elementsMismatch(const float *actual, const float *expected, int64_t count,
                                   double rel, double abs)
{
    int64_t worst = -1;
    double worstExcess = 0.0;
    for (int64_t i = 0; i < count; ++i) {
        if (isClose(actual[i], expected[i], rel, abs))
            continue;
        const double excess = std::isnan(double(actual[i]) - double(expected[i]))
                                  ? INFINITY
                                  : std::abs(double(actual[i]) - double(expected[i])) -
                                        (abs + rel * std::abs(double(expected[i])));
        if (worst < 0 || excess > worstExcess) {
            worst = i;
            worstExcess = excess;
        }
    }
    if (worst < 0)
        return {};
    return "element " + QByteArray::number(qint64(worst)) + " of " +
           QByteArray::number(qint64(count)) + " (C order)" +
           describeMismatch(actual[worst], expected[worst], "");
}

} // namespace headlens::test

/// QVERIFY2 for numbers: reports actual, expected and their difference.
#define HL_COMPARE_NEAR(actual, expected, rel, abs)                                                \
    do {                                                                                           \
        const double hlActual_ = (actual);                                                         \
        const double hlExpected_ = (expected);                                                     \
        QVERIFY2(headlens::test::isClose(hlActual_, hlExpected_, (rel), (abs)),                    \
                 headlens::test::describeMismatch(hlActual_, hlExpected_, #actual).constData());   \
    } while (false)

/// HL_COMPARE_NEAR for whole tensors (anything with shape().toPlainString(), data(), numel()):
/// same sizes, then every element; reports the worst element.
#define HL_COMPARE_TENSORS_NEAR(actual, expected, rel, abs)                                        \
    do {                                                                                           \
        const auto &hlActualT_ = (actual);                                                         \
        const auto &hlExpectedT_ = (expected);                                                     \
        QCOMPARE(QByteArray::fromStdString(hlActualT_.shape().toPlainString()),                    \
                 QByteArray::fromStdString(hlExpectedT_.shape().toPlainString()));                 \
        const QByteArray hlWhy_ = headlens::test::elementsMismatch(                                \
            hlActualT_.data(), hlExpectedT_.data(), hlExpectedT_.numel(), (rel), (abs));           \
        QVERIFY2(hlWhy_.isEmpty(), (QByteArray(#actual) + ": " + hlWhy_).constData());             \
    } while (false)
