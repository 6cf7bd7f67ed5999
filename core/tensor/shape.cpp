// Shape: sizes, element counts and the printed forms used by the CLI and the views.
#include "tensor/shape.h"

namespace headlens {

std::vector<int64_t> Shape::sizes() const
{
    std::vector<int64_t> result;
    result.reserve(m_axes.size());
    for (const Axis &axis : m_axes)
        result.push_back(axis.size);
    return result;
}

int64_t Shape::numel() const
{
    int64_t count = 1;
    for (const Axis &axis : m_axes)
        count *= axis.size;
    return count;
}

std::string Shape::toString() const
{
    std::string text = "(";
    for (size_t i = 0; i < m_axes.size(); ++i) {
        if (i > 0)
            text += ", ";
        text += m_axes[i].name + "=" + std::to_string(m_axes[i].size);
    }
    return text + ")";
}

std::string Shape::toPlainString() const
{
    std::string text = "(";
    for (size_t i = 0; i < m_axes.size(); ++i) {
        if (i > 0)
            text += ", ";
        text += std::to_string(m_axes[i].size);
    }
    return text + ")";
}

} // namespace headlens
