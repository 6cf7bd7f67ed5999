// CostNumbers: one rounding rule for every number of the cost panel.
#include "cost/costnumbers.h"
#include "util/bytesize.h"

#include <cmath>

namespace headlens {

namespace {

QString scaled(double value, double base, const char *const *units, int unitCount)
{
    int unit = 0;
    while (std::abs(value) >= base && unit + 1 < unitCount) {
        value /= base;
        ++unit;
    }
    return CostNumbers::significant(value) + units[unit];
}

} // namespace

QString CostNumbers::significant(double value)
{
    const double magnitude = std::abs(value);
    const int decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
    QString text = QString::number(value, 'f', decimals);
    if (text.contains('.')) {
        while (text.endsWith('0'))
            text.chop(1);
        if (text.endsWith('.'))
            text.chop(1);
    }
    return text;
}

QString CostNumbers::bytes(double value)
{
    const ByteUnit unit = byteUnitFor(value);
    return significant(value / unit.divisor) + " " + unit.name;
}

QString CostNumbers::count(double value)
{
    static const char *const units[] = {"", " k", " M", " G", " T"};
    return scaled(value, 1000.0, units, 5);
}

QString CostNumbers::flops(double value)
{
    static const char *const units[] = {" FLOP", " kFLOP", " MFLOP", " GFLOP", " TFLOP", " PFLOP"};
    return scaled(value, 1000.0, units, 6);
}

} // namespace headlens
