// AttentionInput: the token vectors (and their labels) that enter one attention layer.
#pragma once

#include "attention/layerorigin.h"
#include "tensor/tensor.h"

#include <string>
#include <vector>

namespace headlens {

/// What goes into the layer: a batch of query-side vectors and, for cross-attention, a second
/// batch that supplies keys and values. Shorter sequences are zero-padded to the longest.
struct AttentionInput
{
    std::vector<std::vector<std::string>> tokens;   ///< b sequences of n_i labels (unpadded)
    std::vector<std::vector<std::string>> kvTokens; ///< cross-attention only

    Tensor tokenIds;   ///< (b, n) index into `vocabulary`, -1 at padding; empty for raw input
    Tensor kvTokenIds; ///< (b, n_kv), cross-attention from text only
    std::vector<std::string> vocabulary; ///< distinct token strings, first appearance first

    Tensor tokenEmbeddings; ///< (b, n, d_in) before positions; empty for raw input
    Tensor positions;       ///< (n, d_in) positional encoding added to every sequence; may be empty
    Tensor x;               ///< (b, n, d_in) what the layer reads: embeddings + positions
    Tensor xKv;             ///< (b, n_kv, d_kv_in); empty for self-attention

    /// (b, n_kv), 1 where a key is ignored (PyTorch's key_padding_mask convention); empty when no
    /// key is padded.
    Tensor keyPaddingMask;
    /// Set when x is a model's residual stream entering one of its layers.
    LayerOrigin origin;

    bool isCrossAttention() const { return !xKv.isEmpty(); }
    bool fromText() const { return !tokenEmbeddings.isEmpty(); }
    int64_t batch() const { return x.isEmpty() ? 0 : x.shape().size(0); }
    int64_t queryLength() const { return x.isEmpty() ? 0 : x.shape().size(1); }
    int64_t keyLength() const { return isCrossAttention() ? xKv.shape().size(1) : queryLength(); }
    int64_t inputWidth() const { return x.isEmpty() ? 0 : x.shape().size(2); }
    int64_t kvInputWidth() const { return isCrossAttention() ? xKv.shape().size(2) : inputWidth(); }
    /// Label of query position `i` of sequence `b` ("" past its end).
    std::string queryLabel(int64_t b, int64_t i) const;
    /// Label of key position `j` of sequence `b`.
    std::string keyLabel(int64_t b, int64_t j) const;
    /// Unpadded number of queries / keys of sequence `b`.
    int64_t queryLengthOf(int64_t b) const;
    int64_t keyLengthOf(int64_t b) const;
};

} // namespace headlens
