// InputBuilder: turns typed sentences (or raw vectors) into the AttentionInput the layer reads.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentioninput.h"
#include "tensor/tensor.h"

#include <string>
#include <vector>

namespace headlens {

/// The front of the pipeline: text -> tokens -> embeddings + positions, or raw vectors checked
/// and given axis names. The input width axis is named "d_model" when config.dIn == 0 (the input
/// is as wide as the model) and "d_in" otherwise; key-side lengths are named "n_kv".
/// Everything a person can get wrong throws InputError with a message saying what to do.
class InputBuilder
{
public:
    /// Longest sequence (queries or keys) accepted, in tokens.
    static constexpr int kMaxTokens = 8192;

    /// One sequence per string of `texts` (split lines first with Tokenizer::splitLines),
    /// tokenized with config.tokenizer; b = texts.size(), n = the longest sequence. Fills
    /// tokens, tokenIds (b, n) (-1 at padding), vocabulary (first appearance first, queries
    /// before keys), tokenEmbeddings (b, n, d_in) from TokenEmbedding::vectorFor(token,
    /// config.inputWidth(), config.seed), positions (n, d_in) from PositionTable::make (zeros for
    /// PositionalEncoding::None) and x = tokenEmbeddings + positions, where positions are added
    /// at real tokens only: padding rows stay zero.
    /// Cross-attention when `kvTexts` is not empty: it holds one text (used for every sequence)
    /// or b texts; fills kvTokens (b lists), kvTokenIds (b, n_kv) and xKv (b, n_kv, d_in),
    /// embedded and positioned the same way.
    /// keyPaddingMask (b, n_kv) holds 1 where a key is padding (for self-attention the keys are
    /// the queries); it is left empty when no key is padded.
    /// Throws InputError when there is no text, a sequence has no tokens, the key/value count
    /// fits neither rule, a sequence is longer than kMaxTokens, the input width is not positive,
    /// or the input would not fit config.memoryBudgetBytes.
    static AttentionInput fromTexts(const AttentionConfig &config,
                                    const std::vector<std::string> &texts,
                                    const std::vector<std::string> &kvTexts = {});

    /// Raw vectors (e.g. from a .npy file): `x` is (n, d) or (b, n, d) and becomes x (b, n, d_in)
    /// sharing x's storage. `xKv`, if given, is (n_kv, d) or (b, n_kv, d); with a batch of 1 it
    /// is used for every sequence. `keyPaddingMask`, if given, is (b, n_kv) of 0/1 (1 = ignore)
    /// with at least one 0 per row. Token labels are the positions "0", "1", ...; tokenIds,
    /// vocabulary, tokenEmbeddings and positions stay empty (no positions are added).
    /// Throws InputError naming the problem: wrong rank, no values, width d different from
    /// config.inputWidth(), a NaN or infinity (with its index), a batch mismatch, more than
    /// kMaxTokens tokens, or a mask of the wrong shape or with values other than 0 and 1.
    static AttentionInput fromTensors(const AttentionConfig &config, Tensor x, Tensor xKv = {},
                                      Tensor keyPaddingMask = {});
};

} // namespace headlens
