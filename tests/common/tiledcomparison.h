// tiledcomparison.h: the tiled-run tests' options, and how they compare a grid or a head's
// statistics.
#pragma once

#include "model/transformerrun.h"
#include "stats/headstats.h"
#include "tensor/tensor.h"

#include <QTest>

#include <cmath>

namespace headlens::test {

/// A tiled run with at most `bins` bins per axis, so that a short text is pooled too, keeping
/// the keys and values as the window's runs do; sinks, near and far keys scaled to texts of
/// tens of tokens.
inline TransformerRunOptions tiledOptions(int64_t bins)
{
    TransformerRunOptions options;
    options.viewedLayer = -1;
    options.keepKeyValues = true;
    options.tiled = true;
    options.tiles.maxBins = bins;
    options.tiles.ranges = {2, 4, 8}; // sinks, near, far
    return options;
}

/// Every cell within `tolerance` of `expected`, absolute and relative (a score recomputed from
/// q and k in another product order rounds differently in its last bit, which moves a weight
/// near 1 by up to 2e-6), NaN exactly where `expected` is. Empty when all are; otherwise the
/// first cell that is not, with both values.
inline QByteArray gridMismatch(const Eigen::Ref<const RowMatrix> &actual,
                               const Eigen::Ref<const RowMatrix> &expected, double tolerance)
{
    if (actual.rows() != expected.rows() || actual.cols() != expected.cols())
        return QByteArray("shape ") + QByteArray::number(actual.rows()) + "x" +
               QByteArray::number(actual.cols()) + ", expected " +
               QByteArray::number(expected.rows()) + "x" + QByteArray::number(expected.cols());
    for (int64_t r = 0; r < actual.rows(); ++r)
        for (int64_t c = 0; c < actual.cols(); ++c) {
            const double a = actual(r, c), e = expected(r, c);
            if (std::isnan(a) != std::isnan(e) ||
                (!std::isnan(e) && std::abs(a - e) > tolerance * (1.0 + std::abs(e))))
                return "cell (" + QByteArray::number(r) + ", " + QByteArray::number(c) +
                       "): " + QByteArray::number(a, 'g', 9) + ", expected " +
                       QByteArray::number(e, 'g', 9);
        }
    return {};
}

/// Every statistic of a head within 1e-5, NaN where `expected` has NaN.
inline void compareStats(const HeadStats &actual, const HeadStats &expected)
{
    for (auto field : {&HeadStats::entropy, &HeadStats::meanDistance, &HeadStats::diagonal,
                       &HeadStats::previousToken, &HeadStats::firstToken, &HeadStats::maxWeight,
                       &HeadStats::clsShare, &HeadStats::sepShare, &HeadStats::punctuationShare}) {
        const double a = actual.*field, e = expected.*field;
        QCOMPARE(std::isnan(a), std::isnan(e));
        if (!std::isnan(e))
            QVERIFY2(std::abs(a - e) <= 1e-5 + 1e-5 * std::abs(e),
                     qPrintable(QString("%1 against %2").arg(a).arg(e)));
    }
}

} // namespace headlens::test
