// FamilyTable: one model family as data: its config.json keys, tensor names and switches.
#pragma once

#include "text/tokenizerfolder.h"

#include <functional>
#include <string>
#include <vector>

namespace headlens {

/// How a block normalises its input.
enum class NormKind
{
    LayerNorm, ///< (x - mean) / sqrt(var + eps) * weight + bias (Ba et al. 2016)
    RmsNorm,   ///< x / sqrt(mean(x^2) + eps) * weight (Zhang & Sennrich 2019): Llama, Qwen
};

/// The feed-forward part of a block.
enum class MlpKind
{
    GeluTanh, ///< down(gelu_tanh(up(x))), with biases: GPT-2's "gelu_new"
    SwiGlu,   ///< down(silu(gate(x)) * up(x)), no biases (Shazeer 2020): Llama, Qwen, Mistral
    GeluErf,  ///< down(gelu(up(x))) with the exact (erf) GELU, with biases: BERT's "gelu"
};

/// Where a block's norms sit.
enum class NormPlacement
{
    Pre,  ///< x += attn(norm_1(x)); x += mlp(norm_2(x)); a final norm (GPT-2, Llama)
    Post, ///< x = norm_1(x + attn(x)); x = norm_2(x + mlp(x)); no final norm (BERT)
};

/// Where the token positions enter.
enum class PositionKind
{
    Learned, ///< a learned table added to the token embeddings before the first block
    Rotary,  ///< RoPE inside every attention layer (split-half pairs, Hugging Face's layout)
};

/// How a checkpoint lays out a linear layer's weight.
enum class WeightLayout
{
    Linear, ///< nn.Linear: (d_out, d_in), y = x W^T + b
    Conv1D, ///< Hugging Face's Conv1D (GPT-2): (d_in, d_out), y = x W + b
};

/// A family's config.json key for each setting, and its value when the key is absent or null
/// (the family's own default, as its Hugging Face config class has it). An empty key: the
/// family has no such setting and `fallback` is used (0 = derived, see ModelSpec).
struct ConfigKey
{
    std::string key;
    double fallback = 0;
};

/// Tensor names, "{i}" standing for the layer number. An empty name: the family has no such
/// tensor.
struct TensorNames
{
    std::vector<std::string> prefixes;  ///< tried in order: "" then "transformer." for GPT-2
    std::string embedding;              ///< (vocab, d_model) token embedding
    std::string positions;              ///< (context, d_model) learned positions
    std::string norm1Weight, norm1Bias; ///< before attention
    std::string qkvWeight, qkvBias;     ///< fused Q | K | V projection (GPT-2)
    std::string qWeight, qBias;         ///< separate projections (Llama): (h d_k, d_model)
    std::string kWeight, kBias;         ///< (h_kv d_k, d_model)
    std::string vWeight, vBias;         ///< (h_kv d_v, d_model)
    std::string qNorm, kNorm;           ///< (d_k) per-head RMSNorm of q and k (Qwen3)
    std::string outWeight, outBias;     ///< W_O
    std::string norm2Weight, norm2Bias; ///< before the MLP
    std::string gateWeight;             ///< SwiGLU's gate
    std::string upWeight, upBias;       ///< MLP in
    std::string downWeight, downBias;   ///< MLP out
    std::string finalNormWeight, finalNormBias;
    std::string outputHead; ///< (vocab, d_model) when the head is not tied to the embedding
    std::string tokenTypes; ///< (type_vocab_size, d_model) BERT's segment embeddings
    std::string embeddingNormWeight, embeddingNormBias; ///< BERT: a norm right after embedding
    /// An encoder's masked-language-model head: logits = norm(gelu(dense(x))) E^T + bias, the
    /// decoder tied to the token embedding (or `mlmDecoder` when the file holds one).
    std::string mlmDenseWeight, mlmDenseBias, mlmNormWeight, mlmNormBias, mlmBias, mlmDecoder;
};

/// The special tokens an encoder's text holds, as its tokenizer spells them.
struct SpecialTokens
{
    std::string cls;  ///< "[CLS]" / "<s>": starts every text
    std::string sep;  ///< "[SEP]" / "</s>": ends each segment
    std::string mask; ///< "[MASK]" / "<mask>": what the MLM head fills
};

/// The family as llama.cpp writes it into a GGUF file (convert_hf_to_gguf.py; the names of
/// llama-arch.cpp). Every matrix is in nn.Linear's (out, in) layout, GPT-2's included.
struct GgufNames
{
    /// general.architecture: "llama", "qwen2", "gpt2"; empty: no GGUF file names this family
    /// (llama.cpp writes Mistral as "llama").
    std::string architecture;
    TensorNames tensors; ///< "token_embd.weight", "blk.{i}.attn_q.weight", ...
    /// W_Q's and W_K's rows reordered per head for ggml's RoPE on adjacent pairs (llama.cpp's
    /// Llama); Qwen's "NEOX" RoPE rotates Hugging Face's halves and is written unchanged.
    bool permutedQK = false;
};

/// Everything HeadLens knows about a family, kept as data so that adding one is a new table
/// and its tests, not a new forward pass (as llama.cpp's LLM_TENSOR_NAMES). TransformerModel
/// runs every table through the same code.
struct FamilyTable
{
    std::string modelType;   ///< config.json's "model_type": "gpt2", "llama", ...
    std::string displayName; ///< "GPT-2", "Llama", for messages and menus
    /// The files a folder of this family holds besides the weights, for messages.
    std::string folderContents;

    ConfigKey layers, heads, kvHeads, dModel, headDim, mlpWidth, vocabSize, contextLength,
        normEpsilon, ropeTheta;
    /// BERT's type_vocab_size (rows of the segment embedding); empty key: no token types.
    ConfigKey typeVocabSize;
    /// RoBERTa: position ids start at pad_token_id + 1 (fairseq's convention), so
    /// max_position_embeddings - pad_token_id - 1 tokens fit. Empty key: they start at 0.
    ConfigKey positionsAfterPadding;
    /// Mistral's window; with `windowSwitchKey` (Qwen's use_sliding_window) only when it is true.
    ConfigKey slidingWindow;
    std::string windowSwitchKey;
    std::string ropeScalingKey;   ///< "rope_scaling": an object or null
    std::string tieKey;           ///< "tie_word_embeddings", overriding tiedHead
    std::string attentionBiasKey; ///< "attention_bias": q/k/v/o biases when true
    /// config.json's activation key and the one value HeadLens runs; empty key: not checked.
    std::string activationKey, activation, activationMeaning;
    /// BERT's position_embedding_type: only "absolute" is run (relative keys are refused).
    std::string positionTypeKey;
    /// A true/false key that makes the positions Rotary instead of `positions` (HeadLens's own
    /// trained models, whose config.json says "rope": true or false); empty: always `positions`.
    std::string rotaryKey;

    NormKind norm = NormKind::LayerNorm;
    MlpKind mlp = MlpKind::GeluTanh;
    PositionKind positions = PositionKind::Learned;
    WeightLayout layout = WeightLayout::Linear;
    bool causal = true;
    bool qkvBias = true;  ///< biases on Q, K, V unless attentionBiasKey says otherwise
    bool outBias = true;  ///< a bias on W_O unless attentionBiasKey says otherwise
    bool normBias = true; ///< the norms have a bias (LayerNorm)
    bool qkNorm = false;  ///< per-head RMSNorm of q and k before RoPE (Qwen3)
    bool tiedHead = true; ///< logits through the token embedding, else tensors.outputHead
    NormPlacement placement = NormPlacement::Pre;
    /// The tokenizer's type ids (0 for sentence A, 1 for B) reach the segment embedding; false
    /// when the family's tokenizer returns none and the model reads zeros (RoBERTa).
    bool segmentTypes = false;
    SpecialTokens special; ///< encoders' [CLS], [SEP], [MASK]; empty for decoders
    /// The tokenizer files a folder without tokenizer.json holds.
    SlowTokenizer slowTokenizer = SlowTokenizer::Gpt2Bpe;

    TensorNames tensors;
    GgufNames gguf;

    /// The table for config.json's model_type, or nullptr when HeadLens does not run that
    /// family.
    static const FamilyTable *find(const std::string &modelType);
    /// The table for a GGUF file's general.architecture, or nullptr.
    static const FamilyTable *findGguf(const std::string &architecture);
    /// The architectures findGguf() knows, for messages: "\"gpt2\", \"llama\", ...".
    static std::string knownGgufArchitectures();
    /// For a config.json without model_type (older checkpoints): the first family whose
    /// layer, head or width key `hasKey` says is present, or nullptr.
    static const FamilyTable *byConfigKeys(const std::function<bool(const std::string &)> &hasKey);
    /// The model types find() knows, for messages: "\"gpt2\", \"llama\", ...".
    static std::string knownTypes();
};

/// A TensorNames pattern for layer `layer`: "h.{i}.ln_1.weight", 3 -> "h.3.ln_1.weight" (a name
/// without "{i}" as it is). The model's reader, its layer labels and the bench's writer use it.
std::string layerTensorName(std::string pattern, int layer);

/// The tables, in the order find() tries them (familytables.cpp).
const std::vector<FamilyTable> &familyTables();

} // namespace headlens
