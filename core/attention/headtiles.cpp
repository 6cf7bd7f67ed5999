// HeadTiles: streamed log-sum-exps (the online softmax of FlashAttention's forward pass, for
// the normaliser alone), then regions and pooled grids from blocks of scores.
#include "attention/headtiles.h"

#include "attention/alibi.h"
#include "linalg/gemmdispatch.h"
#include "linalg/matrixproduct.h"
#include "util/cancelled.h"
#include "util/workteam.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>

namespace headlens {

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kHidden = -std::numeric_limits<float>::infinity();

} // namespace

HeadTiles::HeadTiles(RowMatrix q, RowMatrix k, float scale, TileMask mask)
    : m_q(std::move(q)), m_k(std::move(k)), m_scale(scale), m_mask(mask),
      m_logSumExp(Eigen::VectorXd::Constant(m_q.rows(), -std::numeric_limits<double>::infinity()))
{
    // Per block of queries (on every thread), the keys a block at a time: a running maximum and
    // a sum rescaled when the maximum grows, so that no exp overflows and no (n, n_kv) block is
    // held. Within a block the exponentials are float and vectorised, the sums across blocks
    // double.
    const int64_t n = queries();
    const int64_t blocks = (n + kKeyBlock - 1) / kKeyBlock;
    parallelFor(blocks, [&](int64_t block) {
        const int64_t q0 = block * kKeyBlock, q1 = std::min(n, q0 + kKeyBlock);
        Eigen::VectorXd top = Eigen::VectorXd::Constant(q1 - q0, kHidden);
        Eigen::VectorXd sum = Eigen::VectorXd::Zero(q1 - q0);
        forKeyBlocks(q0, q1, [&](int64_t k0, int64_t k1) {
            const RowMatrix s = scores(q0, q1, k0, k1);
            for (int64_t i = 0; i < q1 - q0; ++i) {
                const float blockTop = s.row(i).maxCoeff();
                if (blockTop == kHidden)
                    continue;
                if (double(blockTop) > top(i)) {
                    sum(i) *= std::exp(top(i) - double(blockTop));
                    top(i) = blockTop;
                }
                // exp(-inf) = 0 for the hidden keys.
                sum(i) += double((s.row(i).array() - float(top(i))).exp().sum());
            }
        });
        for (int64_t i = 0; i < q1 - q0; ++i)
            if (sum(i) > 0.0)
                m_logSumExp(q0 + i) = top(i) + std::log(sum(i));
    });
}

HeadTiles::HeadTiles(RowMatrix q, RowMatrix k, float scale, TileMask mask,
                     Eigen::VectorXd logSumExp)
    : m_q(std::move(q)), m_k(std::move(k)), m_scale(scale), m_mask(mask),
      m_logSumExp(std::move(logSumExp))
{}

void HeadTiles::forKeyBlocks(int64_t q0, int64_t q1,
                             const std::function<void(int64_t, int64_t)> &body, int64_t kFirst,
                             int64_t kLast) const
{
    auto [first, last] = m_mask.keyRange(q0, q1, keys());
    first = std::max(first, kFirst);
    last = std::min(last, kLast);
    for (int64_t k0 = first; k0 < last; k0 += kKeyBlock)
        body(k0, std::min(last, k0 + kKeyBlock));
}

// The keys a query hides are a run before its window and a run after it (or after itself):
// set as two segments per row, not tested cell by cell.
RowMatrix HeadTiles::scores(int64_t q0, int64_t q1, int64_t k0, int64_t k1) const
{
    // The product the forward pass uses (HeadKernel), so that a tile's scores are the pass's to
    // the bit where both choose one backend: the weights then differ from the pass's matrix by
    // the rounding of one exp, not of a d_k-long sum in another order.
    RowMatrix s(q1 - q0, k1 - k0);
    assignProduct(GemmDispatch::shared().backendFor(q1 - q0, k1 - k0, m_q.cols()), s,
                  m_q.middleRows(q0, q1 - q0), m_k.middleRows(k0, k1 - k0), Operand::Transposed);
    s *= m_scale;
    for (int64_t i = q0; i < q1; ++i) {
        auto row = s.row(i - q0);
        const auto [first, last] = m_mask.keyRange(i, i + 1, keys());
        const int64_t hideBefore = std::clamp(first, k0, k1) - k0;
        const int64_t showUntil = std::clamp(last, k0, k1) - k0;
        row.head(hideBefore).setConstant(kHidden);
        row.segment(showUntil, row.size() - showUntil).setConstant(kHidden);
        if (m_mask.alibiSlope != 0.0)
            for (int64_t j = std::max(hideBefore, int64_t(0)); j < showUntil; ++j)
                row(j) += alibiBias(m_mask.alibiSlope, i, k0 + j);
    }
    return s;
}

RowMatrix HeadTiles::weightsOf(const RowMatrix &scores, int64_t q0) const
{
    // A query that sees no key (its log-sum-exp -inf) has no weight, not NaN.
    RowMatrix weights(scores.rows(), scores.cols());
    for (int64_t i = 0; i < scores.rows(); ++i)
        if (std::isfinite(m_logSumExp(q0 + i)))
            weights.row(i).array() = (scores.row(i).array() - float(m_logSumExp(q0 + i))).exp();
        else
            weights.row(i).setZero();
    return weights;
}

RowMatrix HeadTiles::region(int64_t q0, int64_t q1, int64_t k0, int64_t k1) const
{
    const RowMatrix s = scores(q0, q1, k0, k1);
    return (s.array() == kHidden).select(kNaN, weightsOf(s, q0).array()).matrix();
}

// Blocks of rows on every thread, each a whole number of row bins, so that no two threads add
// to one bin; `progress` asked after each block, and the blocks not begun skipped once it
// said no.
AttentionPooling HeadTiles::poolRows(const TileRegion &region, int64_t binSize,
                                     const std::function<bool(double)> &progress,
                                     const RowBlock &addRows) const
{
    AttentionPooling pooling(region.rows(), region.cols(), binSize);
    const int64_t rowsPerTask = binSize * std::max<int64_t>(1, 64 / binSize);
    const int64_t tasks = (region.rows() + rowsPerTask - 1) / rowsPerTask;
    std::mutex asking; // progress is called by one thread at a time
    int64_t done = 0;
    std::atomic<bool> abandoned{false};
    parallelFor(tasks, [&](int64_t task) {
        if (abandoned.load(std::memory_order_relaxed))
            return;
        const int64_t q0 = region.q0 + task * rowsPerTask;
        addRows(pooling, q0, std::min(region.q1, q0 + rowsPerTask));
        if (progress) {
            const std::lock_guard<std::mutex> lock(asking);
            if (!progress(double(++done) / double(tasks)))
                abandoned = true;
        }
    });
    if (abandoned)
        throw Cancelled();
    return pooling;
}

// The weights with exact zeros where masked, as the forward pass gives them.
AttentionPooling HeadTiles::pooled(const TileRegion &region, int64_t binSize,
                                   const std::function<bool(double)> &progress) const
{
    return poolRows(
        region, binSize, progress, [&](AttentionPooling &pooling, int64_t q0, int64_t q1) {
            forKeyBlocks(
                q0, q1,
                [&](int64_t k0, int64_t k1) {
                    const RowMatrix s = scores(q0, q1, k0, k1);
                    pooling.addRows(weightsOf(s, q0), s, q0 - region.q0, k0 - region.k0);
                },
                region.k0, region.k1);
        });
}

AttentionPooling HeadTiles::pooledBand(const TileRegion &band, int64_t binSize,
                                       const std::function<bool(double)> &progress) const
{
    return poolRows(band, binSize, progress,
                    [&](AttentionPooling &pooling, int64_t q0, int64_t q1) {
                        addBandRows(pooling, band, q0, q1);
                    });
}

// The block of queries against the keys its distances reach, as a square block; each row's
// keys then read backwards into the band's columns (the key `distance` back from the query),
// hidden where a distance reaches no key, so that AttentionPooling pools the band as it pools
// the square.
void HeadTiles::addBandRows(AttentionPooling &pooling, const TileRegion &band, int64_t q0,
                            int64_t q1) const
{
    for (int64_t d0 = band.k0; d0 < band.k1; d0 += kKeyBlock) {
        const int64_t d1 = std::min(band.k1, d0 + kKeyBlock);
        const int64_t kLow = std::max<int64_t>(0, q0 - d1 + 1);
        const int64_t kHigh = std::min(keys(), q1 - d0);
        if (kLow >= kHigh)
            continue; // every distance of the block reaches outside the text
        const RowMatrix s = scores(q0, q1, kLow, kHigh);
        const RowMatrix w = weightsOf(s, q0);
        RowMatrix bandScores = RowMatrix::Constant(q1 - q0, d1 - d0, kHidden);
        RowMatrix bandWeights = RowMatrix::Zero(q1 - q0, d1 - d0);
        for (int64_t i = 0; i < q1 - q0; ++i) {
            // Distances [first, last] reach keys [q - last, q - first], within [kLow, kHigh).
            const int64_t q = q0 + i;
            const int64_t first = std::max(d0, q - kHigh + 1), last = std::min(d1 - 1, q - kLow);
            if (first > last)
                continue;
            const int64_t length = last - first + 1, fromKey = q - last - kLow;
            bandScores.row(i).segment(first - d0, length) =
                s.row(i).segment(fromKey, length).reverse();
            bandWeights.row(i).segment(first - d0, length) =
                w.row(i).segment(fromKey, length).reverse();
        }
        pooling.addRows(bandWeights, bandScores, q0 - band.q0, d0 - band.k0);
    }
}

// Per block of queries (on every thread), each block of keys' weights folded into the five
// sums with the keys' distances from each query.
RowProfiles HeadTiles::rowProfiles(const ProfileRanges &ranges) const
{
    const int64_t n = queries();
    RowProfiles p = RowProfiles::filled(n, 0.0);
    const int64_t blocks = (n + kKeyBlock - 1) / kKeyBlock;
    parallelFor(blocks, [&](int64_t block) {
        const int64_t q0 = block * kKeyBlock, q1 = std::min(n, q0 + kKeyBlock);
        forKeyBlocks(q0, q1, [&](int64_t k0, int64_t k1) {
            const RowMatrix w = region(q0, q1, k0, k1);
            for (int64_t i = 0; i < w.rows(); ++i) {
                const int64_t query = q0 + i;
                for (int64_t j = 0; j < w.cols(); ++j) {
                    const double weight = w(i, j);
                    if (std::isnan(weight) || weight == 0.0)
                        continue;
                    const int64_t key = k0 + j, distance = std::abs(query - key);
                    if (key < ranges.sinkTokens)
                        p.sinkShare(query) += weight;
                    if (distance < ranges.nearTokens)
                        p.nearShare(query) += weight;
                    if (distance >= ranges.farTokens)
                        p.farShare(query) += weight;
                    p.meanDistance(query) += weight * double(distance);
                    p.entropy(query) -= weight * std::log(weight);
                }
            }
        });
    });
    return p;
}

} // namespace headlens
