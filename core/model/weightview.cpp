// WeightView: rows and columns of a stored matrix widened to float32.
#include "model/weightview.h"

namespace headlens {

void WeightView::widenRows(int64_t first, int64_t count, float *out) const
{
    const int64_t width = storedFloatBytes(format);
    widenFloats(bytes + first * cols * width, format, count * cols, out);
}

void WeightView::widenColumns(int64_t first, int64_t count, float *out) const
{
    const int64_t width = storedFloatBytes(format);
    for (int64_t row = 0; row < rows; ++row)
        widenFloats(bytes + (row * cols + first) * width, format, count, out + row * count);
}

RowMatrix WeightView::widen() const
{
    RowMatrix m(rows, cols);
    widenRows(0, rows, m.data());
    return m;
}

std::optional<ConstRowMatrixMap> WeightView::inPlace() const
{
    if (format != StoredFloat::F32 || reinterpret_cast<uintptr_t>(bytes) % alignof(float) != 0)
        return std::nullopt;
    return ConstRowMatrixMap(reinterpret_cast<const float *>(bytes), rows, cols);
}

} // namespace headlens
