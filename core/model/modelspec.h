// ModelSpec: one checkpoint's sizes and switches, read from config.json through its family table.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/ropescaling.h"
#include "model/familytable.h"

#include <string>

namespace headlens {

/// What the forward pass needs to know about a model, whatever its family. The switches come
/// from the family's table (and the few config.json keys that override them), the sizes from
/// config.json (the table's defaults where a key is absent, as Hugging Face's config classes
/// do).
struct ModelSpec
{
    const FamilyTable *family = nullptr; ///< never null once read
    int layers = 0;                      ///< L: transformer blocks
    int heads = 0;                       ///< h: query heads per attention layer
    int kvHeads = 0;                     ///< h_kv: key/value heads (h for GPT-2)
    int dModel = 0;                      ///< width of the residual stream
    int headDimension = 0;               ///< d_k = d_v (head_dim; d_model / h unless given)
    int mlpWidth = 0;                    ///< hidden width of the MLP
    int vocabSize = 0;                   ///< rows of the token embedding
    int contextLength = 0;               ///< longest input (rows of the position table)
    float normEpsilon = 1e-5f;
    float ropeTheta = 10000.0f;
    RopeScaling ropeScaling;
    int window = 0;         ///< sliding window, 0 = none
    bool qkvBias = false;   ///< q/k/v projections have biases
    bool outBias = false;   ///< W_O has a bias
    bool tiedHead = true;   ///< logits through the token embedding
    int bosTokenId = -1;    ///< bos_token_id, -1 when absent
    int eosTokenId = -1;    ///< eos_token_id (the first when a list), -1 when absent
    int typeVocabSize = 0;  ///< rows of BERT's segment embedding, 0 when the family has none
    int positionOffset = 0; ///< the first token's position id (RoBERTa: pad_token_id + 1)
    /// The family's positions, or Rotary where its rotaryKey says so (read nowhere else).
    PositionKind positions = PositionKind::Learned;

    /// The most tokens a text may have: the position table's rows from positionOffset on.
    int maxTokens() const { return contextLength - positionOffset; }

    int headDim() const { return headDimension; }
    /// The settings every layer's attention runs with, as computeTrace sees them: causal, scale
    /// 1/sqrt(d_k), the family's biases, K/V heads, RoPE (split-half, with its theta and
    /// scaling), the window and q/k norms; no dropout, no positional encoding of its own (a
    /// learned table is added before the first block).
    AttentionConfig attentionConfig() const;
    /// "n_layer 2, n_embd 16, vocab_size 357, n_positions 32": the sizes under the family's own
    /// key names, for messages about tensors that do not fit them.
    std::string sizesText() const;

    /// The spec in `json` (the text of config.json). Throws InputError starting with
    /// `sourceName` when the text is not a JSON object, model_type names a family HeadLens does
    /// not run, a size is not a whole number in range, the heads do not fit d_model (or h_kv
    /// does not divide h), rope_scaling is of a kind HeadLens does not compute, or the
    /// activation is not the one the family runs.
    static ModelSpec fromJson(const std::string &json, const std::string &sourceName);
    /// fromJson() of the file at `path`; InputError when it cannot be read.
    static ModelSpec read(const std::string &path);
};

} // namespace headlens
