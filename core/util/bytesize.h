// Byte sizes for people: the binary unit a size reads best in, and the size written in it.
#pragma once

#include <string>

namespace headlens {

/// A power of 1024 and its name: bytes, KiB, MiB, GiB, TiB or PiB.
struct ByteUnit
{
    double divisor = 1.0;
    const char *name = "bytes";
};

/// The largest unit not above `bytes` (bytes below 1 KiB), so the number is 1 to 1023.
ByteUnit byteUnitFor(double bytes);

/// "1.5 GiB", "640.0 KiB", "512 bytes": `decimals` digits after the point in every unit but
/// bytes. The one byte formatter: messages, the CLI's cost table, the Cost tab and its plot.
std::string formatBytes(double bytes, int decimals = 1);

} // namespace headlens
