// FamilyTable: one model family as data: its config.json keys, tensor names and switches.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace headlens {

/// How a block normalises its input.
enum class NormKind
{
    LayerNorm, ///< (x - mean) / sqrt(var + eps) * weight + bias (Ba et al. 2016)
};

/// The feed-forward part of a block.
enum class MlpKind
{
    GeluTanh, ///< down(gelu_tanh(up(x))), with biases: GPT-2's "gelu_new"
};

/// Where the token positions enter.
enum class PositionKind
{
    Learned, ///< a learned table added to the token embeddings before the first block
};

/// How a checkpoint lays out a linear layer's weight.
enum class WeightLayout
{
    Linear, ///< nn.Linear: (d_out, d_in), y = x W^T + b
    Conv1D, ///< Hugging Face's Conv1D (GPT-2): (d_in, d_out), y = x W + b
};

/// A family's config.json key for each size, and its value when the key is absent (the
/// family's own default, as its Hugging Face config class has it). An empty key: the family
/// has no such setting and `fallback` is used (0 = derived, see ModelSpec).
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
    std::string qkvWeight, qkvBias;     ///< fused Q | K | V projection
    std::string outWeight, outBias;     ///< W_O
    std::string norm2Weight, norm2Bias; ///< before the MLP
    std::string upWeight, upBias;       ///< MLP in
    std::string downWeight, downBias;   ///< MLP out
    std::string finalNormWeight, finalNormBias;
    std::string outputHead; ///< (vocab, d_model) when the head is not tied to the embedding
};

/// Everything HeadLens knows about a family, kept as data so that adding one is a new table
/// and its tests, not a new forward pass (as llama.cpp's LLM_TENSOR_NAMES). TransformerModel
/// runs every table through the same code.
struct FamilyTable
{
    std::string modelType;   ///< config.json's "model_type": "gpt2"
    std::string displayName; ///< "GPT-2", for messages and menus
    /// The files a folder of this family holds besides the weights, for messages.
    std::string folderContents;

    ConfigKey layers, heads, dModel, mlpWidth, vocabSize, contextLength, normEpsilon;
    /// config.json's activation key and the one value HeadLens runs; empty key: not checked.
    std::string activationKey, activation, activationMeaning;

    NormKind norm = NormKind::LayerNorm;
    MlpKind mlp = MlpKind::GeluTanh;
    PositionKind positions = PositionKind::Learned;
    WeightLayout layout = WeightLayout::Linear;
    bool causal = true;
    bool attentionBias = true;
    bool tiedHead = true; ///< logits through the token embedding, else tensors.outputHead

    TensorNames tensors;

    /// The table for config.json's model_type, or nullptr when HeadLens does not run that
    /// family.
    static const FamilyTable *find(const std::string &modelType);
    /// For a config.json without model_type (older checkpoints): the first family whose
    /// layer, head or width key `hasKey` says is present, or nullptr.
    static const FamilyTable *byConfigKeys(const std::function<bool(const std::string &)> &hasKey);
    /// The model types find() knows, for messages: "gpt2".
    static std::string knownTypes();
};

} // namespace headlens
