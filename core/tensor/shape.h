// Shape: a tensor's sizes with the axis names the lessons use, e.g. (b=1, n=10, h=8, d_k=64).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace headlens {

/// One named axis of a shape: {"n", 10}.
struct Axis
{
    std::string name;
    int64_t size = 0;

    bool operator==(const Axis &other) const { return name == other.name && size == other.size; }
};

/// Sizes in C (row-major) order, each with its name. The names are labels for people;
/// only the sizes take part in arithmetic.
class Shape
{
public:
    Shape() = default;
    Shape(std::initializer_list<Axis> axes) : m_axes(axes) {}
    explicit Shape(std::vector<Axis> axes) : m_axes(std::move(axes)) {}

    const std::vector<Axis> &axes() const { return m_axes; }
    int rank() const { return static_cast<int>(m_axes.size()); }
    int64_t size(int axis) const { return m_axes.at(static_cast<size_t>(axis)).size; }
    const std::string &name(int axis) const { return m_axes.at(static_cast<size_t>(axis)).name; }
    std::vector<int64_t> sizes() const;
    /// Product of the sizes (1 for rank 0).
    int64_t numel() const;

    /// "(b=1, n=10, d_model=512)"
    std::string toString() const;
    /// "(1, 10, 512)", as PyTorch prints a shape.
    std::string toPlainString() const;

    bool operator==(const Shape &other) const { return m_axes == other.m_axes; }
    bool operator!=(const Shape &other) const { return !(*this == other); }

private:
    std::vector<Axis> m_axes;
};

} // namespace headlens
