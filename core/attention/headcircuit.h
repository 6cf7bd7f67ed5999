// HeadCircuit: one head's QK and OV circuits (Elhage et al. 2021), as maps and over tokens.
#pragma once

#include "tensor/tensor.h"

#include <vector>

namespace headlens {

/// Row-vector convention, as the model runs (q = x W_Q,h with W_Q,h = wQ_h^T): the QK circuit
/// W_QK = W_Q,h W_K,h^T (d_model, d_model), so that a query x_i and a key x_j score
/// x_i W_QK x_j^T / sqrt(d_k); the OV circuit W_OV = W_V,h W_O,h (d_model, d_model), what the
/// head writes for a key x_j it attends to fully: x_j W_OV. Biases are left out, as in the
/// paper. T = the tokens the circuits are read on.
struct HeadCircuit
{
    /// (d_k) the singular values of W_QK and of W_OV, largest first: each circuit has rank at
    /// most d_k, and how fast they fall says how many directions the head reads or writes.
    std::vector<double> qkSingularValues;
    std::vector<double> ovSingularValues;
    /// (T, T) e_i W_QK e_j^T / sqrt(d_k): how much query token i prefers key token j, through
    /// the embeddings alone.
    RowMatrix qkTokens;
    /// (T, T) e_s W_OV u_t^T: what attending to token s adds to token t's logit, through the
    /// embeddings and the unembedding alone.
    RowMatrix ovTokens;
    /// The copying score (Elhage et al. 2021): of the eigenvalues λ of ovTokens, sum Re λ /
    /// sum |λ|, in [-1, 1]: near 1 for a head that raises the logit of the token it attends to,
    /// near -1 for one that lowers it.
    double copyingScore = 0.0;
};

/// The circuits of one head from its blocks (wQ_h, wK_g (d_k, d_model), wV_g (d_v, d_model),
/// wO_h (d_model, d_v), as AttentionWeights holds them: rows of wQ, wK, wV and columns of wO)
/// and the embeddings (T, d_model) and unembeddings (T, d_model) of the tokens to read.
/// Precondition: the shapes agree, T >= 1.
HeadCircuit headCircuit(const Eigen::Ref<const RowMatrix> &wQ,
                        const Eigen::Ref<const RowMatrix> &wK,
                        const Eigen::Ref<const RowMatrix> &wV,
                        const Eigen::Ref<const RowMatrix> &wO,
                        const Eigen::Ref<const RowMatrix> &embeddings,
                        const Eigen::Ref<const RowMatrix> &unembeddings);

} // namespace headlens
