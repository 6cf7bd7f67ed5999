// WeightView: rows and columns of a stored matrix widened to float32.
#include "model/weightview.h"

#include <algorithm>
#include <vector>

namespace headlens {

void WeightView::widenRows(int64_t first, int64_t count, float *out) const
{
    widenFloats(bytes + first * rowBytes(), format, count * cols, out);
}

void WeightView::widenColumns(int64_t first, int64_t count, float *out) const
{
    const int64_t block = storedBlockValues(format);
    if (block == 1) {
        const int64_t width = storedBlockBytes(format);
        for (int64_t row = 0; row < rows; ++row)
            widenFloats(bytes + (row * cols + first) * width, format, count, out + row * count);
        return;
    }
    // A quantized row is decoded a whole block at a time: the blocks the columns fall in.
    const int64_t begin = first / block * block;
    const int64_t end = (first + count + block - 1) / block * block;
    std::vector<float> decoded(size_t(end - begin));
    for (int64_t row = 0; row < rows; ++row) {
        widenFloats(bytes + row * rowBytes() + storedBytes(format, begin), format, end - begin,
                    decoded.data());
        std::copy_n(decoded.data() + (first - begin), count, out + row * count);
    }
}

int64_t WeightView::rowBytes() const
{
    return storedBytes(format, cols);
}

RowMatrix WeightView::widen() const
{
    RowMatrix m(rows, cols);
    widenRows(0, rows, m.data());
    return m;
}

std::optional<ConstRowMatrixMap> WeightView::inPlace() const
{
    if (format != StoredFormat::F32 || reinterpret_cast<uintptr_t>(bytes) % alignof(float) != 0)
        return std::nullopt;
    return ConstRowMatrixMap(reinterpret_cast<const float *>(bytes), rows, cols);
}

} // namespace headlens
