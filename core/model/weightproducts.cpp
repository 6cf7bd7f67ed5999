// weightproducts: the column-split product, in place for F32, block-widened for F16 and BF16, or
// in bfloat16 by oneDNN for BF16.
#include "model/weightproducts.h"

#include "linalg/productprecision.h"
#include "tensor/columnsplitproduct.h"
#include "util/workteam.h"

#include <algorithm>
#include <cassert>
#include <vector>

namespace headlens {

namespace {

/// Floats of weight widened at a time. For a few rows of x (a short text, the logits of the
/// last token) the product is a pass over the weight: 1 MiB stays in L2 between widening and
/// multiplying. For many rows narrow blocks slow Eigen's kernel (n=1024, GPT-2 small: 10%), so
/// up to 8 MiB (a whole GPT-2 MLP matrix's share of a thread) are widened at once.
int64_t blockFloats(int64_t rows)
{
    return rows < 256 ? int64_t(1) << 18 : int64_t(1) << 21;
}

/// y's columns [begin, end) from W widened `chunk` output columns at a time.
void multiplyWidened(const Eigen::Ref<const RowMatrix> &x, const WeightView &w, WeightLayout layout,
                     Eigen::Ref<RowMatrix> y, int64_t begin, int64_t end)
{
    const int64_t depth = x.cols();
    const int64_t chunk = std::clamp<int64_t>(blockFloats(x.rows()) / std::max<int64_t>(depth, 1),
                                              16, std::max<int64_t>(end - begin, 1));
    std::vector<float> buffer(size_t(chunk * depth));
    for (int64_t first = begin; first < end; first += chunk) {
        const int64_t count = std::min(chunk, end - first);
        const GemmBackend backend = GemmDispatch::shared().backendFor(x.rows(), count, depth);
        if (layout == WeightLayout::Conv1D) {
            w.widenColumns(first, count, buffer.data()); // (d_in, count)
            assignProduct(backend, y.middleCols(first, count), x,
                          ConstRowMatrixMap(buffer.data(), depth, count), Operand::AsIs);
        } else {
            w.widenRows(first, count, buffer.data()); // (count, d_in)
            assignProduct(backend, y.middleCols(first, count), x,
                          ConstRowMatrixMap(buffer.data(), count, depth), Operand::Transposed);
        }
    }
}

} // namespace

std::string productsSummary(StoredFormat format)
{
    const std::string stored = std::string(storedFormatName(format)) + " weights";
    if (format == StoredFormat::F32)
        return stored;
    if (format == StoredFormat::BF16 && ProductPrecision::bf16Now())
        return stored + " · products in bfloat16, float32 sums";
    if (format == StoredFormat::F16 || format == StoredFormat::BF16)
        return stored + " · widened to float32";
    return stored + " · decoded to float32";
}

int64_t outputsOf(const WeightView &w, WeightLayout layout)
{
    return layout == WeightLayout::Conv1D ? w.cols : w.rows;
}

RowMatrix multiply(const Eigen::Ref<const RowMatrix> &x, const WeightView &w, WeightLayout layout)
{
    RowMatrix y(x.rows(), outputsOf(w, layout));
    multiplyInto(x, w, layout, y);
    return y;
}

void multiplyInto(const Eigen::Ref<const RowMatrix> &x, const WeightView &w, WeightLayout layout,
                  Eigen::Ref<RowMatrix> y)
{
    const int64_t outputs = outputsOf(w, layout);
    assert(y.rows() == x.rows() && y.cols() == outputs);
    if (const std::optional<ConstRowMatrixMap> stored = w.inPlace()) {
        if (layout == WeightLayout::Conv1D)
            assignColumnSplitProduct(y, x, *stored, Operand::AsIs);
        else
            assignColumnSplitProduct(y, x, *stored, Operand::Transposed);
        return;
    }
    // A BF16 weight as stored: (d_in, d_out) for Conv1D, (d_out, d_in) for Linear.
    if (w.format == StoredFormat::BF16 && ProductPrecision::bf16Now() &&
        assignBf16ColumnSplitProduct(
            y, x, Bf16Block{reinterpret_cast<const uint16_t *>(w.bytes), w.rows, w.cols, w.cols},
            layout == WeightLayout::Conv1D ? Operand::AsIs : Operand::Transposed))
        return;
    // The same split of y's columns over the threads as assignColumnSplitProduct.
    const int parts = columnSplitParts(outputs);
    parallelFor(parts, [&](int64_t part) {
        multiplyWidened(x, w, layout, y, outputs * part / parts, outputs * (part + 1) / parts);
    });
}

} // namespace headlens
