// AttentionWeights: PyTorch-compatible initialisation and shape checks.
#include "attention/attentionweights.h"

#include "linalg/bf16product.h"
#include "linalg/productprecision.h"
#include "util/counterrandom.h"

#include <cmath>

namespace headlens {

namespace {

// Streams keep each matrix's random numbers independent of the others' sizes.
enum Stream : uint64_t
{
    InProj = 101,
    QProj,
    KProj,
    VProj,
    OutProj
};

RowMatrix uniformMatrix(int rows, int cols, float bound, uint64_t seed, uint64_t stream)
{
    const CounterRandom random(seed, stream);
    RowMatrix m(rows, cols);
    for (int64_t i = 0; i < m.size(); ++i)
        m.data()[i] = random.symmetric(static_cast<uint64_t>(i), bound);
    return m;
}

float xavierBound(int fanIn, int fanOut)
{
    return std::sqrt(6.0f / static_cast<float>(fanIn + fanOut));
}

std::string shapeText(Eigen::Index rows, Eigen::Index cols)
{
    return "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
}

/// ", h_kv=2" for grouped-query settings; nothing when every head has its own K and V.
std::string kvHeadsText(const AttentionConfig &config)
{
    if (config.kvHeadCount() == config.heads)
        return {};
    return ", h_kv=" + std::to_string(config.kvHeadCount());
}

} // namespace

AttentionWeights AttentionWeights::initialize(const AttentionConfig &config, int kvInputWidth)
{
    const int dIn = config.inputWidth();
    const int qk = config.heads * config.headDimK();
    const int k = config.kvHeadCount() * config.headDimK();
    const int v = config.kvHeadCount() * config.headDimV();
    const int concat = config.heads * config.headDimV();
    AttentionWeights w;
    if (kvInputWidth == dIn && qk == k && k == v) {
        // One (3*E, E) in_proj_weight, as nn.MultiheadAttention when kdim == vdim == embed_dim.
        const RowMatrix inProj =
            uniformMatrix(3 * qk, dIn, xavierBound(dIn, 3 * qk), config.seed, InProj);
        w.wQ = inProj.topRows(qk);
        w.wK = inProj.middleRows(qk, qk);
        w.wV = inProj.bottomRows(v);
    } else {
        w.wQ = uniformMatrix(qk, dIn, xavierBound(dIn, qk), config.seed, QProj);
        w.wK = uniformMatrix(k, kvInputWidth, xavierBound(kvInputWidth, k), config.seed, KProj);
        w.wV = uniformMatrix(v, kvInputWidth, xavierBound(kvInputWidth, v), config.seed, VProj);
    }
    w.wO = uniformMatrix(config.dModel, concat, 1.0f / std::sqrt(static_cast<float>(concat)),
                         config.seed, OutProj);
    w.bQ = Vector::Zero(qk);
    w.bK = Vector::Zero(k);
    w.bV = Vector::Zero(v);
    w.bO = Vector::Zero(config.dModel);
    return w;
}

std::optional<std::string> AttentionWeights::mismatch(const AttentionConfig &config,
                                                      int kvInputWidth) const
{
    const int qk = config.heads * config.headDimK();
    const int k = config.kvHeadCount() * config.headDimK();
    const int v = config.kvHeadCount() * config.headDimV();
    const int concat = config.heads * config.headDimV();
    struct Expected
    {
        const char *name;
        Eigen::Index rows, cols, wantRows, wantCols;
    };
    const Expected checks[] = {
        {"W_Q (q_proj_weight)", wQ.rows(), wQ.cols(), qk, config.inputWidth()},
        {"W_K (k_proj_weight)", wK.rows(), wK.cols(), k, kvInputWidth},
        {"W_V (v_proj_weight)", wV.rows(), wV.cols(), v, kvInputWidth},
        {"W_O (out_proj.weight)", wO.rows(), wO.cols(), config.dModel, concat},
        {"b_Q", bQ.size(), 1, qk, 1},
        {"b_K", bK.size(), 1, k, 1},
        {"b_V", bV.size(), 1, v, 1},
        {"b_O (out_proj.bias)", bO.size(), 1, config.dModel, 1},
    };
    for (const Expected &c : checks) {
        if (c.rows != c.wantRows || c.cols != c.wantCols)
            return std::string(c.name) + " has shape " + shapeText(c.rows, c.cols) +
                   " but d_model=" + std::to_string(config.dModel) +
                   ", h=" + std::to_string(config.heads) + kvHeadsText(config) + " needs " +
                   shapeText(c.wantRows, c.wantCols) +
                   ". Set d_model and heads to the values the weights were trained with.";
    }
    const int64_t norms = config.qkNorm ? config.headDimK() : 0;
    if (qNorm.size() != norms || kNorm.size() != norms)
        return "The q/k norm weights have " + std::to_string(qNorm.size()) + " and " +
               std::to_string(kNorm.size()) + " numbers but " +
               (config.qkNorm ? "d_k=" + std::to_string(norms) + " needs one per dimension."
                              : std::string("the layer has no q/k norms."));
    return std::nullopt;
}

int64_t AttentionWeights::parameterCount(bool withBias) const
{
    int64_t count = wQ.size() + wK.size() + wV.size() + wO.size();
    if (withBias)
        count += bQ.size() + bK.size() + bV.size() + bO.size();
    return count;
}

void AttentionWeights::keepBf16()
{
    if (!cpuMultipliesBf16())
        return;
    auto rounded = std::make_shared<Bf16Projections>();
    const std::pair<const RowMatrix *, std::vector<uint16_t> *> matrices[] = {
        {&wQ, &rounded->q}, {&wK, &rounded->k}, {&wV, &rounded->v}, {&wO, &rounded->o}};
    for (const auto &[matrix, out] : matrices) {
        out->resize(size_t(matrix->size()));
        if (!roundToBf16(*matrix, out->data()))
            return;
    }
    bf16 = std::move(rounded);
}

const Bf16Projections *AttentionWeights::bf16Products() const
{
    return bf16 && ProductPrecision::bf16Now() ? bf16.get() : nullptr;
}

} // namespace headlens
