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

/// The largest unit not above `bytes` (bytes below 1 KiB), so the number is 1 to 1023, taking
/// the next unit where the number rounded to `decimals` would read 1024 (1048575 bytes is
/// "1.0 MiB", not "1024.0 KiB"). The plot's axis and the Cost tab pick their unit with it.
ByteUnit byteUnitFor(double bytes, int decimals = 0);

/// "1.5 GiB", "640.0 KiB", "512 bytes": `decimals` digits after the point in every unit but
/// bytes; decimals 0 writes a cap as people read it ("4 GiB", "16 MiB"). The one byte
/// formatter: messages, the CLI's cost table and model list, the model picker, the file caps.
std::string formatBytes(double bytes, int decimals = 1);

} // namespace headlens
