// Byte sizes: a loop over the units, then snprintf.
#include "util/bytesize.h"

#include <cmath>
#include <cstdio>

namespace headlens {

ByteUnit byteUnitFor(double bytes, int decimals)
{
    static const char *const names[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
    // Bytes are written whole, other units with `decimals` digits: 1024 is where either rolls
    // over once rounded.
    const auto rounded = [decimals](double value, bool whole) {
        const double scale = std::pow(10.0, whole ? 0 : decimals);
        return std::round(std::abs(value) * scale) / scale;
    };
    ByteUnit unit;
    for (int i = 1; i < 6 && rounded(bytes / unit.divisor, i == 1) >= 1024.0; ++i)
        unit = {unit.divisor * 1024.0, names[i]};
    return unit;
}

std::string formatBytes(double bytes, int decimals)
{
    const ByteUnit unit = byteUnitFor(bytes, decimals);
    char text[48];
    std::snprintf(text, sizeof text, "%.*f %s", unit.divisor == 1.0 ? 0 : decimals,
                  bytes / unit.divisor, unit.name);
    return text;
}

} // namespace headlens
