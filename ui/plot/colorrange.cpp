// ColorRange: the readable top of a shared scale, and each colour-scale choice's range.
#include "plot/colorrange.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace headlens {

double ColorRange::readableTop(double largest)
{
    if (!(largest > 0.0) || largest >= 1.0)
        return 1.0;
    // Mantissas whose quarters (the legend's ticks) print in at most three digits.
    static constexpr double kSteps[] = {1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0};
    const double decade = std::pow(10.0, std::floor(std::log10(largest)));
    for (const double step : kSteps) {
        // The relative slack keeps 0.05 at 0.05 when log10 and pow round it a hair above.
        if (step * decade >= largest * (1.0 - 1e-9))
            return std::min(step * decade, 1.0);
    }
    return 1.0;
}

double ColorRange::largestInformative(const Eigen::Ref<const RowMatrix> &weights, bool causal)
{
    double largest = 0.0;
    for (Eigen::Index i = 0; i < weights.rows(); ++i) {
        int above = 0; // NaN (masked) is not above zero
        float top = 0.0f;
        const Eigen::Index seen = causal ? std::min(weights.cols(), i + 1) : weights.cols();
        for (Eigen::Index j = 0; j < seen; ++j) {
            const float w = weights(i, j);
            if (w > 0.0f) {
                ++above;
                top = std::max(top, w);
            }
        }
        if (above > 1)
            largest = std::max(largest, double(top));
    }
    return largest;
}

std::pair<double, double> ColorRange::finiteRangeOf(const Eigen::Ref<const RowMatrix> &m)
{
    double lo = INFINITY, hi = -INFINITY;
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            if (const float v = m(i, j); std::isfinite(v)) {
                lo = std::min(lo, double(v));
                hi = std::max(hi, double(v));
            }
    return {lo, hi};
}

ColorRange ColorRange::of(ColorScaleMode mode, double largestShown,
                          std::pair<double, double> ownRange)
{
    switch (mode) {
    case ColorScaleMode::Full:
        return {0.0, 1.0};
    case ColorScaleMode::PerHead:
        return {ownRange.first, ownRange.second};
    case ColorScaleMode::Shown:
        break;
    }
    return {0.0, readableTop(largestShown)};
}

QString ColorRange::legendTitle(ColorScaleMode mode)
{
    switch (mode) {
    case ColorScaleMode::Full:
        return QCoreApplication::translate("ColorRange", "weight, 0 to 1");
    case ColorScaleMode::PerHead:
        return QCoreApplication::translate("ColorRange", "weight, each head its own");
    case ColorScaleMode::Shown:
        break;
    }
    return QCoreApplication::translate("ColorRange", "weight, up to the largest shown");
}

QString ColorRange::modeName(ColorScaleMode mode)
{
    switch (mode) {
    case ColorScaleMode::Full:
        return QStringLiteral("full");
    case ColorScaleMode::PerHead:
        return QStringLiteral("per-head");
    case ColorScaleMode::Shown:
        break;
    }
    return QStringLiteral("shown");
}

ColorScaleMode ColorRange::modeFromName(const QString &name)
{
    if (name == QLatin1String("full"))
        return ColorScaleMode::Full;
    if (name == QLatin1String("per-head"))
        return ColorScaleMode::PerHead;
    return ColorScaleMode::Shown;
}

} // namespace headlens
