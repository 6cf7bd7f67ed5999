// Byte sizes: a loop over the units, then snprintf.
#include "util/bytesize.h"

#include <cmath>
#include <cstdio>

namespace headlens {

ByteUnit byteUnitFor(double bytes)
{
    static const char *const names[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
    ByteUnit unit;
    for (int i = 1; i < 6 && std::abs(bytes) / unit.divisor >= 1024.0; ++i)
        unit = {unit.divisor * 1024.0, names[i]};
    return unit;
}

std::string formatBytes(double bytes, int decimals)
{
    const ByteUnit unit = byteUnitFor(bytes);
    char text[48];
    std::snprintf(text, sizeof text, "%.*f %s", unit.divisor == 1.0 ? 0 : decimals,
                  bytes / unit.divisor, unit.name);
    return text;
}

} // namespace headlens
