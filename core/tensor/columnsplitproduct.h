// assignColumnSplitProduct: out = a * b with the threads taking blocks of columns.
#pragma once

#include "util/workteam.h"

#include <Eigen/Core>

#include <algorithm>

#include <omp.h>

namespace headlens {

/// out = a * b, the threads (parallelFor) each computing whole blocks of out's columns with Eigen
/// running single-threaded inside.
///
/// Why not Eigen's own threaded product: its threads spin-wait for one another, which collapses
/// (10x slower) when the two cores are shared with other work. Each thread packs its own columns
/// of b, so a small product's packing of the weights (a third of the time at n=16) is shared out
/// too.
///
/// The attention layer's projections and every product of the GPT-2 model go through here, so
/// that a model layer run at the attention-only record level and its full trace round the same
/// way.
template <typename Out, typename Lhs, typename Rhs>
void assignColumnSplitProduct(Out &&out, const Lhs &a, const Rhs &b)
{
    const Eigen::Index cols = b.cols();
    // Blocks of at least 64 columns keep Eigen's kernels at full width; two per thread balance
    // the load when the blocks do not divide evenly.
    const Eigen::Index blocks = std::max<Eigen::Index>(1, cols / 64);
    const int parts = int(std::min<Eigen::Index>(blocks, 2 * omp_get_max_threads()));
    parallelFor(parts, [&](int64_t part) {
        const Eigen::Index begin = cols * part / parts, end = cols * (part + 1) / parts;
        out.middleCols(begin, end - begin).noalias() = a * b.middleCols(begin, end - begin);
    });
}

} // namespace headlens
