// CostNumbers: how the cost panel writes bytes, counts and FLOPs (three significant digits).
#pragma once

#include <QString>

namespace headlens {

class CostNumbers
{
public:
    /// Binary units, as memory is sold: "1.25 GiB", "10 GiB", "160 MiB", "512 bytes".
    static QString bytes(double value);
    /// "70.0 M", "1.25 G": parameters and other counts, decimal prefixes.
    static QString count(double value);
    /// "3.52 TFLOP", "13.3 MFLOP".
    static QString flops(double value);
    /// `value` with three significant digits and no trailing zeros: 1.25, 10, 160, 0.5.
    static QString significant(double value);
};

} // namespace headlens
