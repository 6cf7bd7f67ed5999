// DropoutMask: the counter-based draw of each element's keep-or-drop.
#include "train/dropoutmask.h"

#include "util/counterrandom.h"

#include <cassert>

namespace headlens {

DropoutMask::DropoutMask(float probability, uint64_t seed, uint64_t step, int firstSequence)
    : m_probability(probability), m_seed(seed), m_step(step), m_firstSequence(firstSequence)
{
    assert(probability >= 0.0f && probability < 1.0f && firstSequence >= 0);
}

template <typename S>
MatrixT<S> DropoutMask::factors(int layer, Site site, Eigen::Index rows, Eigen::Index cols,
                                int count) const
{
    assert(count > 0 && rows % count == 0);
    const uint64_t stream = CounterRandom::mix(m_step) + uint64_t(3 * layer + int(site));
    const CounterRandom random(m_seed, stream);
    const float keep = 1.0f - m_probability;
    const S kept = S(1) / S(keep);
    const uint64_t first = uint64_t(m_firstSequence) * uint64_t(rows / count * cols);
    MatrixT<S> out(rows, cols);
    for (Eigen::Index e = 0; e < out.size(); ++e)
        out.data()[e] = random.uniform(first + uint64_t(e)) < keep ? kept : S(0);
    return out;
}

template MatrixT<float> DropoutMask::factors<float>(int, Site, Eigen::Index, Eigen::Index,
                                                    int) const;
template MatrixT<double> DropoutMask::factors<double>(int, Site, Eigen::Index, Eigen::Index,
                                                      int) const;

} // namespace headlens
