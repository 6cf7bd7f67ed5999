// Tensor: a float32 array in C order with a named shape; views share storage like torch.view.
#pragma once

#include "tensor/shape.h"

#include <Eigen/Core>

#include <memory>
#include <vector>

namespace headlens {

/// Row-major float matrix: the layout of a slice of a C-order tensor.
using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowMatrixMap = Eigen::Map<RowMatrix>;
using ConstRowMatrixMap = Eigen::Map<const RowMatrix>;
using Vector = Eigen::VectorXf;

/// A float32 tensor in C (row-major) order. Copies share storage (cheap, like a PyTorch
/// tensor handle); `view()` reinterprets the same storage with another shape, as `x.view(...)`.
/// Writing through a shared tensor is visible in every handle: the core fills a tensor once
/// and then treats it as immutable.
class Tensor
{
public:
    Tensor() = default;
    /// A zero-filled tensor.
    explicit Tensor(Shape shape);
    /// A tensor whose values are unspecified, for a step that writes every element: its storage
    /// may be recycled from an earlier trace (StoragePool) and is then not cleared first.
    static Tensor uninitialized(Shape shape);
    /// A tensor holding `values` (size must equal shape.numel()).
    Tensor(Shape shape, std::vector<float> values);

    const Shape &shape() const { return m_shape; }
    int64_t numel() const { return m_shape.numel(); }
    bool isEmpty() const { return !m_storage; }

    float *data() { return m_storage.get(); }
    const float *data() const { return m_storage.get(); }

    /// Element at a full C-order index.
    float at(std::initializer_list<int64_t> index) const;
    /// Offset of the first element of the slice fixed by `leading` indices.
    int64_t offsetOf(std::initializer_list<int64_t> leading) const;

    /// The last two axes at the given leading indices as a matrix map, e.g. head h of batch b
    /// of a (b, h, n, d_k) tensor: `matrix({b, h})` is (n, d_k).
    RowMatrixMap matrix(std::initializer_list<int64_t> leading);
    ConstRowMatrixMap matrix(std::initializer_list<int64_t> leading) const;

    /// The same storage seen with another shape of the same element count (torch.view).
    Tensor view(Shape shape) const;
    /// An independent copy of the values.
    Tensor clone() const;
    /// True when both handles share one storage (a view or a copy of a handle).
    bool sharesStorageWith(const Tensor &other) const { return m_storage == other.m_storage; }

private:
    Shape m_shape;
    /// The values; owns either a StoragePool block or a moved-in std::vector (aliasing pointer).
    std::shared_ptr<float> m_storage;
};

} // namespace headlens
