// ModelSpec: config.json parsed with nlohmann-json and checked before any tensor is read.
#include "model/modelspec.h"

#include "io/wholefile.h"
#include "model/configreader.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace headlens {

namespace {

/// The family config.json names. Old configs have no model_type, only the family's own keys.
const FamilyTable &familyOf(const nlohmann::json &json, const std::string &source)
{
    const auto type = json.find("model_type");
    const FamilyTable *table =
        type == json.end()
            ? FamilyTable::byConfigKeys([&](const std::string &key) { return json.contains(key); })
        : type->is_string() ? FamilyTable::find(type->get<std::string>())
                            : nullptr;
    if (table)
        return *table;
    throw InputError(source + ": model_type is " +
                     (type == json.end() ? std::string("missing") : quotedText(type->dump())) +
                     ", but HeadLens runs the model types " + FamilyTable::knownTypes() +
                     ". Open a checkpoint of one of those families.");
}

/// The sizes, with the checks that tie them together.
void readSizes(const ConfigReader &read, ModelSpec &s)
{
    const FamilyTable &t = *s.family;
    s.layers = read.size(t.layers, 1024);
    s.heads = read.size(t.heads, 1024);
    s.kvHeads = read.size(t.kvHeads, 1024);
    s.dModel = read.size(t.dModel, 65536);
    s.headDimension = read.size(t.headDim, 4096);
    s.contextLength = read.size(t.contextLength, 1 << 24);
    s.vocabSize = read.size(t.vocabSize, 1 << 22);
    s.mlpWidth = read.size(t.mlpWidth, 1 << 20);
    if (s.mlpWidth == 0)
        s.mlpWidth = 4 * s.dModel; // GPT-2's n_inner: null means 4 * n_embd
    if (s.kvHeads == 0)
        s.kvHeads = s.heads;
    s.typeVocabSize = read.size(t.typeVocabSize, 1 << 16);
    if (!t.positionsAfterPadding.key.empty()) {
        const int pad = read.tokenId(t.positionsAfterPadding.key);
        s.positionOffset = (pad >= 0 ? pad : int(t.positionsAfterPadding.fallback)) + 1;
        if (s.positionOffset >= s.contextLength)
            read.fail(t.positionsAfterPadding.key + " " + std::to_string(s.positionOffset - 1) +
                      " leaves no position for a token among " + t.contextLength.key + " " +
                      std::to_string(s.contextLength) + ". Fix config.json.");
    }
    if (s.headDimension == 0) {
        if (s.dModel % s.heads != 0)
            read.fail(t.dModel.key + " " + std::to_string(s.dModel) + " cannot be split over " +
                      t.heads.key + " " + std::to_string(s.heads) + " heads. Fix config.json.");
        s.headDimension = s.dModel / s.heads;
    }
    if (s.heads % s.kvHeads != 0)
        read.fail(t.kvHeads.key + " " + std::to_string(s.kvHeads) + " does not divide " +
                  t.heads.key + " " + std::to_string(s.heads) +
                  ": every K/V head must serve the same number of query heads. Fix config.json.");
}

/// The switches config.json may override, and what rotary positions need.
void readSwitches(const ConfigReader &read, ModelSpec &s)
{
    const FamilyTable &t = *s.family;
    s.normEpsilon = float(read.positive(t.normEpsilon, 1.0));
    s.qkvBias = t.qkvBias;
    s.outBias = t.outBias;
    if (read.flag(t.attentionBiasKey, false))
        s.qkvBias = s.outBias = true;
    s.tiedHead = read.flag(t.tieKey, t.tiedHead);
    s.positions = read.flag(t.rotaryKey, t.positions == PositionKind::Rotary)
                      ? PositionKind::Rotary
                      : PositionKind::Learned;
    if (s.positions == PositionKind::Rotary) {
        s.ropeTheta = float(read.positive(t.ropeTheta, 1e12));
        s.ropeScaling = read.ropeScaling(t.ropeScalingKey);
        if (s.headDimension % 2 != 0)
            read.fail("head_dim " + std::to_string(s.headDimension) +
                      " is odd, but RoPE turns pairs of dimensions. Fix config.json.");
    }
    const bool windowOn = t.windowSwitchKey.empty() || read.flag(t.windowSwitchKey, false);
    s.window = windowOn ? read.size(t.slidingWindow, 1 << 24) : 0;
    s.bosTokenId = read.tokenId("bos_token_id");
    s.eosTokenId = read.tokenId("eos_token_id");
    read.activation(t);
    read.fixedText(t.positionTypeKey, "absolute",
                   "learned absolute positions (\"absolute\"), not relative position keys");
}

} // namespace

AttentionConfig ModelSpec::attentionConfig() const
{
    AttentionConfig c;
    c.dModel = dModel;
    c.heads = heads;
    c.kvHeads = kvHeads == heads ? 0 : kvHeads;
    if (headDimension * heads != dModel) { // Qwen3: head_dim is not d_model / h
        c.tied = false;
        c.dK = c.dV = headDimension;
    }
    c.causal = family->causal;
    c.bias = qkvBias || outBias; // an absent bias is read as zeros
    c.scale = ScaleMode::InvSqrtDk;
    c.dropout = 0.0f;
    c.positional = PositionalEncoding::None;
    if (positions == PositionKind::Rotary) {
        c.attentionPositions = AttentionPositions::Rope;
        c.ropeTheta = ropeTheta;
        c.ropeScaling = ropeScaling;
    }
    c.window = window;
    c.qkNorm = family->qkNorm;
    c.qkNormEpsilon = normEpsilon;
    return c;
}

std::string ModelSpec::sizesText() const
{
    const FamilyTable &t = *family;
    return t.layers.key + " " + std::to_string(layers) + ", " + t.dModel.key + " " +
           std::to_string(dModel) + ", " + t.vocabSize.key + " " + std::to_string(vocabSize) +
           ", " + t.contextLength.key + " " + std::to_string(contextLength);
}

ModelSpec ModelSpec::fromJson(const std::string &text, const std::string &source)
{
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded() || !json.is_object())
        throw InputError(source + " is not a JSON object like Hugging Face's config.json. "
                                  "Download it again.");
    ModelSpec s;
    s.family = &familyOf(json, source);
    const ConfigReader read(json, source);
    readSizes(read, s);
    readSwitches(read, s);
    return s;
}

ModelSpec ModelSpec::read(const std::string &path)
{
    const std::string text = WholeFile::readText(
        path, "a model folder needs Hugging Face's config.json beside its weights and "
              "tokenizer (for GPT-2: " +
                  FamilyTable::find("gpt2")->folderContents + ").");
    return fromJson(text, path);
}

} // namespace headlens
