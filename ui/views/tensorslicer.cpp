// TensorSlicer: index arithmetic for the layouts the trace records, (b, h, ., .) and (b, ., h, .).
#include "views/tensorslicer.h"

#include <cmath>
#include <limits>

namespace headlens {

namespace {

RowMatrix finite(RowMatrix m)
{
    for (Eigen::Index i = 0; i < m.size(); ++i)
        if (std::isinf(m.data()[i]))
            m.data()[i] = std::numeric_limits<float>::quiet_NaN();
    return m;
}

bool isHeadAxis(const std::string &name)
{
    return name == "h" || name == "h_kv";
}

} // namespace

TensorPanels TensorSlicer::slice(const Tensor &t, int b)
{
    TensorPanels out;
    const Shape &s = t.shape();
    if (t.isEmpty() || s.rank() == 0)
        return out;
    if (s.rank() == 1 || (s.rank() == 2 && s.name(0) == "b")) {
        const int64_t cols = s.size(s.rank() - 1);
        const int64_t start = s.rank() == 2 ? int64_t(b) * cols : 0;
        out.rowsAxis = "";
        out.colsAxis = s.name(s.rank() - 1);
        out.panels.push_back(finite(Eigen::Map<const RowMatrix>(t.data() + start, 1, cols)));
    } else if (s.rank() == 2) {
        out.rowsAxis = s.name(0);
        out.colsAxis = s.name(1);
        out.panels.push_back(finite(t.matrix({})));
    } else if (s.rank() == 3 && isHeadAxis(s.name(0))) {
        out.rowsAxis = s.name(1);
        out.colsAxis = s.name(2);
        out.perHead = true;
        out.headAxis = s.name(0);
        for (int64_t head = 0; head < s.size(0); ++head)
            out.panels.push_back(finite(t.matrix({head})));
    } else if (s.rank() == 3) {
        out.rowsAxis = s.name(1);
        out.colsAxis = s.name(2);
        out.panels.push_back(finite(t.matrix({b})));
    } else if (isHeadAxis(s.name(1))) {
        out.rowsAxis = s.name(2);
        out.colsAxis = s.name(3);
        out.perHead = true;
        out.headAxis = s.name(1);
        for (int64_t head = 0; head < s.size(1); ++head)
            out.panels.push_back(finite(t.matrix({b, head})));
    } else {
        // (b, r, h, c): head `head` is every h-th block of c numbers.
        const int64_t rows = s.size(1), h = s.size(2), cols = s.size(3);
        out.rowsAxis = s.name(1);
        out.colsAxis = s.name(3);
        out.perHead = true;
        out.headAxis = s.name(2);
        const ConstRowMatrixMap all(t.data() + int64_t(b) * rows * h * cols, rows, h * cols);
        for (int64_t head = 0; head < h; ++head)
            out.panels.push_back(finite(all.middleCols(head * cols, cols)));
    }
    return out;
}

} // namespace headlens
