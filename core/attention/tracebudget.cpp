// estimateTraceBytes: what a trace will hold, checked before it is made.
#include "attention/attentionforward.h"

#include <cstdio>

namespace headlens {

int64_t estimateTraceBytes(const AttentionConfig &config, int64_t b, int64_t n, int64_t nKv,
                           bool keyPadding, bool crossAttention)
{
    const int64_t h = config.heads, hKv = config.kvHeadCount(), dK = config.headDimK(),
                  dV = config.headDimV(), dIn = config.inputWidth(), dModel = config.dModel;
    const bool alibi = config.attentionPositions == AttentionPositions::Alibi;
    const bool window = config.window > 0;
    // A window hides a key older than w from the last query on, or (bidirectional) w ahead.
    const bool windowHides =
        window && (config.window < n || (!config.causal && config.window < nKv));
    const int64_t inputs = 2 * b * n * dIn + n * dIn + (crossAttention ? b * nKv * dIn : 0) + b * n;
    const int64_t projections = 2 * (b * n * h * dK + b * nKv * hKv * dK + b * nKv * hKv * dV);
    // q_rot and k_rot with RoPE; k_repeated and v_repeated when K/V heads are shared.
    // q_normed and k_normed with q/k norms.
    const int64_t rotated = (int64_t(config.usesRope()) + int64_t(config.qkNorm)) *
                            (b * n * h * dK + b * nKv * hKv * dK);
    const int64_t repeated = hKv < h ? b * h * nKv * (dK + dV) : 0;
    // scores_raw and softmax always; scores, masked_scores and weights share storage with the
    // step before them when scaling, masking or dropout leave the numbers unchanged. The mask,
    // mask_reason with a window, alibi_bias with ALiBi.
    const int64_t copies = 2 + (config.scaleFactor() != 1.0f || alibi) +
                           ((config.causal || keyPadding || windowHides) ? 1 : 0) +
                           ((config.training && config.dropout > 0.0f) ? 1 : 0);
    const int64_t scoreLike = copies * b * h * n * nKv + b * n * nKv + (window ? b * n * nKv : 0) +
                              (alibi ? h * n * nKv : 0);
    const int64_t outputs = 2 * b * h * n * dV + b * h * n * dModel + b * n * dModel;
    return static_cast<int64_t>(sizeof(float)) *
           (inputs + projections + rotated + repeated + scoreLike + outputs);
}

} // namespace headlens
