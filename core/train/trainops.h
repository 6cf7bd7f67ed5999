// TrainOps: forward and backward of every operation of the toy model, written once for any scalar.
#pragma once

#include "linalg/softmaxrow.h"

#include <Eigen/Core>

#include <cassert>
#include <cmath>
#include <limits>
#include <vector>

namespace headlens {

/// Row-major matrix and column vector of a scalar type: float for training, double for
/// gradient checks against finite differences.
template <typename S>
using MatrixT = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename S> using VectorT = Eigen::Matrix<S, Eigen::Dynamic, 1>;

/// What LayerNorm's backward needs from its forward.
template <typename S> struct LayerNormCacheT
{
    MatrixT<S> normalized; ///< (r, d) (x - mean) / sqrt(var + eps), before gamma and beta
    VectorT<S> invStd;     ///< (r) 1 / sqrt(var + eps) per row
};

/// The operations of a GPT-style transformer, each as a forward and its backward.
/// Every backward takes dL/d(output) and returns (or accumulates, where it says so) dL/d(input)
/// and dL/d(parameters). Rows are tokens; a batch of sequences is stacked along the rows.
template <typename S> class TrainOps
{
    static constexpr S kGeluScale = S(0.7978845608028654); // sqrt(2 / pi)

public:
    using Matrix = MatrixT<S>;
    using Vector = VectorT<S>;
    using ConstMatrixRef = Eigen::Ref<const Matrix>;
    using ConstVectorRef = Eigen::Ref<const Vector>;

    /// Embedding lookup: row r of the result is row ids[r] of `table` (token embeddings
    /// (vocab, d_model), or learned positions (max_n, d_model) with ids = positions).
    /// Precondition: 0 <= ids[r] < table.rows().
    static Matrix gatherRows(const ConstMatrixRef &table, const std::vector<int> &ids)
    {
        Matrix out(static_cast<Eigen::Index>(ids.size()), table.cols());
        for (size_t r = 0; r < ids.size(); ++r) {
            assert(ids[r] >= 0 && ids[r] < table.rows());
            out.row(Eigen::Index(r)) = table.row(ids[r]);
        }
        return out;
    }

    /// Backward of gatherRows: dTable[ids[r]] += dOut[r] (accumulates).
    static void gatherRowsBackward(const ConstMatrixRef &dOut, const std::vector<int> &ids,
                                   Matrix &dTable)
    {
        for (size_t r = 0; r < ids.size(); ++r)
            dTable.row(ids[r]) += dOut.row(Eigen::Index(r));
    }

    /// nn.Linear: Y = X W^T + b. X (r, d_in), W (d_out, d_in), b (d_out).
    static Matrix linear(const ConstMatrixRef &x, const ConstMatrixRef &w, const ConstVectorRef &b)
    {
        Matrix y = x * w.transpose();
        y.rowwise() += b.transpose();
        return y;
    }

    /// Backward of linear: dW += dY^T X, db += column sums of dY (accumulate); returns dX = dY W.
    static Matrix linearBackward(const ConstMatrixRef &dY, const ConstMatrixRef &x,
                                 const ConstMatrixRef &w, Matrix &dW, Vector &db)
    {
        dW.noalias() += dY.transpose() * x;
        db += dY.colwise().sum().transpose();
        return dY * w;
    }

    /// The unembedding tied to the token embedding: Y = X E^T, no bias. X (r, d), E (vocab, d).
    static Matrix tiedLinear(const ConstMatrixRef &x, const ConstMatrixRef &e)
    {
        return x * e.transpose();
    }

    /// Backward of tiedLinear: dE += dY^T X (accumulates: the embedding's gather adds its
    /// own part); returns dX = dY E.
    static Matrix tiedLinearBackward(const ConstMatrixRef &dY, const ConstMatrixRef &x,
                                     const ConstMatrixRef &e, Matrix &dE)
    {
        dE.noalias() += dY.transpose() * x;
        return dY * e;
    }

    /// GELU, the tanh approximation GPT-2 uses ("gelu_new", nn.GELU(approximate="tanh")):
    /// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
    static Matrix gelu(const ConstMatrixRef &x)
    {
        const auto a = x.array();
        return (S(0.5) * a * (S(1) + (kGeluScale * (a + S(0.044715) * a.cube())).tanh())).matrix();
    }

    /// Backward of gelu: dX = dY * (0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2/pi) (1 + 3 0.044715
    /// x^2)) with t = tanh(sqrt(2/pi) (x + 0.044715 x^3)).
    static Matrix geluBackward(const ConstMatrixRef &dY, const ConstMatrixRef &x)
    {
        const auto a = x.array();
        const auto t = (kGeluScale * (a + S(0.044715) * a.cube())).tanh().eval();
        const auto slope = S(0.5) * (S(1) + t) + S(0.5) * a * (S(1) - t.square()) * kGeluScale *
                                                     (S(1) + S(3 * 0.044715) * a.square());
        return (dY.array() * slope).matrix();
    }

    /// Scaled scores of one head, S = scale * Q K^T (Vaswani et al. 2017, eq. 1; scale =
    /// 1/sqrt(d_k)). Q (n, d_k), K (n_kv, d_k) -> (n, n_kv).
    static Matrix scaledScores(const ConstMatrixRef &q, const ConstMatrixRef &k, S scale)
    {
        return scale * (q * k.transpose());
    }

    /// Backward of scaledScores: dQ = scale dS K, dK = scale dS^T Q (overwrites dQ and dK).
    static void scaledScoresBackward(const ConstMatrixRef &dS, const ConstMatrixRef &q,
                                     const ConstMatrixRef &k, S scale, Matrix &dQ, Matrix &dK)
    {
        dQ.noalias() = scale * (dS * k);
        dK.noalias() = scale * (dS.transpose() * q);
    }

    /// Causal mask: query i sees keys j <= i; later keys get -infinity, so the softmax gives
    /// them weight 0. Square scores only.
    static Matrix causalMask(const ConstMatrixRef &scores)
    {
        assert(scores.rows() == scores.cols());
        Matrix out = scores;
        for (Eigen::Index i = 0; i < out.rows(); ++i)
            out.row(i).tail(out.cols() - i - 1).setConstant(-std::numeric_limits<S>::infinity());
        return out;
    }

    /// Backward of causalMask: the gradient passes where keys are visible and is 0 elsewhere.
    static Matrix causalMaskBackward(const ConstMatrixRef &dMasked)
    {
        Matrix d = dMasked;
        for (Eigen::Index i = 0; i < d.rows(); ++i)
            d.row(i).tail(d.cols() - i - 1).setZero();
        return d;
    }

    /// Softmax of each row by softmaxRow, the attention kernel's own (float and double alike):
    /// masked (-inf) keys get exactly 0. Precondition: every row has a finite entry (a row of
    /// -inf would come out as zeros, not a distribution).
    static Matrix softmaxRows(const ConstMatrixRef &scores)
    {
        Matrix p(scores.rows(), scores.cols());
        for (Eigen::Index i = 0; i < scores.rows(); ++i)
            softmaxRow(scores.row(i).data(), p.row(i).data(), scores.cols());
        return p;
    }

    /// Backward of softmaxRows: dS = P * (dP - rowsum(dP * P)) (elementwise products).
    static Matrix softmaxRowsBackward(const ConstMatrixRef &dP, const ConstMatrixRef &p)
    {
        const Vector dot = (dP.array() * p.array()).rowwise().sum().matrix();
        return (p.array() * (dP.colwise() - dot).array()).matrix();
    }

    /// Weighted sum of values: O = P V. P (n, n_kv), V (n_kv, d_v) -> (n, d_v).
    static Matrix weightedSum(const ConstMatrixRef &p, const ConstMatrixRef &v) { return p * v; }

    /// Backward of weightedSum: dP = dO V^T, dV = P^T dO (overwrites both).
    static void weightedSumBackward(const ConstMatrixRef &dO, const ConstMatrixRef &p,
                                    const ConstMatrixRef &v, Matrix &dP, Matrix &dV)
    {
        dP.noalias() = dO * v.transpose();
        dV.noalias() = p.transpose() * dO;
    }

    /// Inverted dropout: X times `factors` elementwise (0 where dropped, 1 / (1 - p) where
    /// kept: DropoutMask); an empty `factors` (no dropout) passes X through unchanged. Being a
    /// product by a constant, its backward is the same call on dL/dY.
    static Matrix dropout(Matrix x, const Matrix &factors)
    {
        if (factors.size() > 0)
            x.array() *= factors.array();
        return x;
    }

    /// Concat(head_1, ..., head_h): the heads' (n, d_v) outputs side by side, (n, h*d_v).
    static Matrix concatHeads(const std::vector<Matrix> &heads)
    {
        assert(!heads.empty());
        const Eigen::Index width = heads.front().cols();
        Matrix out(heads.front().rows(), width * Eigen::Index(heads.size()));
        for (size_t h = 0; h < heads.size(); ++h)
            out.middleCols(Eigen::Index(h) * width, width) = heads[h];
        return out;
    }

    /// Backward of concatHeads: the gradient split back into `heads` column blocks.
    static std::vector<Matrix> concatHeadsBackward(const ConstMatrixRef &dOut, int heads)
    {
        const Eigen::Index width = dOut.cols() / heads;
        std::vector<Matrix> parts;
        for (int h = 0; h < heads; ++h)
            parts.push_back(dOut.middleCols(h * width, width));
        return parts;
    }

    /// LayerNorm over each row (Ba et al. 2016): (x - mean) / sqrt(var + eps) * gamma + beta,
    /// with the biased variance and eps = 1e-5 as nn.LayerNorm. Fills `cache` for the backward.
    static Matrix layerNorm(const ConstMatrixRef &x, const ConstVectorRef &gamma,
                            const ConstVectorRef &beta, LayerNormCacheT<S> &cache)
    {
        const Vector mean = x.rowwise().mean();
        Matrix centered = x.colwise() - mean;
        const Vector var = centered.array().square().rowwise().mean().matrix();
        cache.invStd = (var.array() + S(1e-5)).rsqrt().matrix();
        cache.normalized = centered.array().colwise() * cache.invStd.array();
        Matrix y = cache.normalized.array().rowwise() * gamma.transpose().array();
        y.rowwise() += beta.transpose();
        return y;
    }

    /// Backward of layerNorm: dGamma, dBeta accumulate; returns
    /// dX = invStd * (g - mean(g) - xhat * mean(g * xhat)) with g = dY * gamma.
    static Matrix layerNormBackward(const ConstMatrixRef &dY, const LayerNormCacheT<S> &cache,
                                    const ConstVectorRef &gamma, Vector &dGamma, Vector &dBeta)
    {
        const Matrix &xhat = cache.normalized;
        dGamma += (dY.array() * xhat.array()).colwise().sum().matrix().transpose();
        dBeta += dY.colwise().sum().transpose();
        const Matrix g = dY.array().rowwise() * gamma.transpose().array();
        const Vector meanG = g.rowwise().mean();
        const Vector meanGX = (g.array() * xhat.array()).rowwise().mean().matrix();
        Matrix dX = (g.colwise() - meanG).array() - xhat.array().colwise() * meanGX.array();
        dX.array().colwise() *= cache.invStd.array();
        return dX;
    }

    /// What crossEntropy measured.
    struct CrossEntropyResult
    {
        double lossSum = 0.0; ///< sum over scored rows of -log softmax(logits)[target]
        int scored = 0;       ///< rows with a target >= 0
        int correct = 0;      ///< scored rows whose largest logit is the target
        Matrix dLogits;       ///< weight * (softmax(logits) - onehot(target)); 0 on unscored rows
    };

    /// Cross-entropy of logits (r, vocab) against targets (r, -1 = not scored). The gradient is
    /// that of `weight * lossSum`, so weight = 1 / (scored rows of the whole batch) gives the
    /// gradient of the mean. Precondition: targets.size() == r, targets < vocab.
    static CrossEntropyResult crossEntropy(const ConstMatrixRef &logits,
                                           const std::vector<int> &targets, S weight)
    {
        CrossEntropyResult result;
        result.dLogits = Matrix::Zero(logits.rows(), logits.cols());
        for (Eigen::Index r = 0; r < logits.rows(); ++r) {
            const int target = targets[size_t(r)];
            if (target < 0)
                continue;
            Eigen::Index best = 0;
            logits.row(r).maxCoeff(&best);
            // dLogits' row holds softmax(logits) first: -log p_target = -(l_t - max - log Z).
            const SoftmaxRowSums<S> sums =
                softmaxRow(logits.row(r).data(), result.dLogits.row(r).data(), logits.cols());
            result.lossSum -= double(logits(r, target) - sums.max - sums.logNormalizer);
            result.scored += 1;
            result.correct += best == target ? 1 : 0;
            result.dLogits.row(r) *= weight;
            result.dLogits(r, target) -= weight;
        }
        return result;
    }
};

} // namespace headlens
