// Tensor: storage, element access and matrix maps over C-order slices.
#include "tensor/tensor.h"

#include "tensor/storagepool.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <stdexcept>

namespace headlens {

Tensor::Tensor(Shape shape)
    : m_shape(std::move(shape)), m_storage(StoragePool::instance().acquire(m_shape.numel(), true))
{}

Tensor Tensor::uninitialized(Shape shape)
{
    Tensor t;
    t.m_storage = StoragePool::instance().acquire(shape.numel(), false);
    t.m_shape = std::move(shape);
    return t;
}

Tensor::Tensor(Shape shape, std::vector<float> values) : m_shape(std::move(shape))
{
    if (static_cast<int64_t>(values.size()) != m_shape.numel())
        throw std::invalid_argument("Tensor: " + std::to_string(values.size()) +
                                    " values do not fill shape " + m_shape.toString());
    if (values.empty()) { // data() of an empty vector may be null, which would read as isEmpty()
        m_storage = StoragePool::instance().acquire(0, true);
        return;
    }
    auto owner = std::make_shared<std::vector<float>>(std::move(values));
    m_storage = std::shared_ptr<float>(owner, owner->data());
}

int64_t Tensor::offsetOf(std::initializer_list<int64_t> leading) const
{
    assert(static_cast<int>(leading.size()) <= m_shape.rank());
    int64_t offset = 0;
    int axis = 0;
    for (int64_t index : leading) {
        assert(index >= 0 && index < m_shape.size(axis));
        offset = offset * m_shape.size(axis) + index;
        ++axis;
    }
    for (; axis < m_shape.rank(); ++axis)
        offset *= m_shape.size(axis);
    return offset;
}

float Tensor::at(std::initializer_list<int64_t> index) const
{
    assert(static_cast<int>(index.size()) == m_shape.rank());
    return data()[offsetOf(index)];
}

RowMatrixMap Tensor::matrix(std::initializer_list<int64_t> leading)
{
    const int rank = m_shape.rank();
    assert(static_cast<int>(leading.size()) == rank - 2);
    return RowMatrixMap(data() + offsetOf(leading), m_shape.size(rank - 2), m_shape.size(rank - 1));
}

ConstRowMatrixMap Tensor::matrix(std::initializer_list<int64_t> leading) const
{
    const int rank = m_shape.rank();
    assert(static_cast<int>(leading.size()) == rank - 2);
    return ConstRowMatrixMap(data() + offsetOf(leading), m_shape.size(rank - 2),
                             m_shape.size(rank - 1));
}

Tensor Tensor::view(Shape shape) const
{
    if (shape.numel() != numel())
        throw std::invalid_argument("Tensor::view: cannot view " + m_shape.toString() + " as " +
                                    shape.toString());
    Tensor result;
    result.m_shape = std::move(shape);
    result.m_storage = m_storage;
    return result;
}

Tensor Tensor::clone() const
{
    if (isEmpty())
        return Tensor();
    Tensor copy = uninitialized(m_shape);
    std::memcpy(copy.data(), data(), static_cast<size_t>(numel()) * sizeof(float));
    return copy;
}

} // namespace headlens
