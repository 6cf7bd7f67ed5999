// ModelSpec: config.json parsed with nlohmann-json and checked before any tensor is read.
#include "model/modelspec.h"

#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace headlens {

namespace {

/// The value of `key`: its fallback when absent (or null), else a whole number in [1, limit].
int readSize(const nlohmann::json &json, const ConfigKey &key, int limit, const std::string &source)
{
    const auto found = key.key.empty() ? json.end() : json.find(key.key);
    if (found == json.end() || found->is_null())
        return int(key.fallback);
    if (!found->is_number_integer() || found->get<int64_t>() < 1 || found->get<int64_t>() > limit)
        throw InputError(source + ": \"" + key.key + "\" is " + quotedText(found->dump()) +
                         ", but it must be a whole number from 1 to " + std::to_string(limit) +
                         ". Fix config.json or download it again.");
    return found->get<int>();
}

float readEpsilon(const nlohmann::json &json, const ConfigKey &key, const std::string &source)
{
    const auto eps = json.find(key.key);
    if (eps == json.end())
        return float(key.fallback);
    if (!eps->is_number() || !(eps->get<double>() > 0.0 && eps->get<double>() < 1.0))
        throw InputError(source + ": \"" + key.key + "\" is " + quotedText(eps->dump()) +
                         ", but it must be a small positive number such as 1e-05.");
    return eps->get<float>();
}

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

} // namespace

AttentionConfig ModelSpec::attentionConfig() const
{
    AttentionConfig c;
    c.dModel = dModel;
    c.heads = heads;
    c.causal = family->causal;
    c.bias = family->attentionBias;
    c.scale = ScaleMode::InvSqrtDk;
    c.dropout = 0.0f;
    c.positional = PositionalEncoding::None;
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
    const FamilyTable &t = *s.family;
    s.layers = readSize(json, t.layers, 1024, source);
    s.heads = readSize(json, t.heads, 1024, source);
    s.dModel = readSize(json, t.dModel, 65536, source);
    s.contextLength = readSize(json, t.contextLength, 1 << 20, source);
    s.vocabSize = readSize(json, t.vocabSize, 1'000'000, source);
    s.mlpWidth = readSize(json, t.mlpWidth, 1 << 20, source);
    if (s.mlpWidth == 0)
        s.mlpWidth = 4 * s.dModel; // GPT-2's n_inner: null means 4 * n_embd
    s.normEpsilon = readEpsilon(json, t.normEpsilon, source);
    if (s.dModel % s.heads != 0)
        throw InputError(source + ": " + t.dModel.key + " " + std::to_string(s.dModel) +
                         " cannot be split over " + t.heads.key + " " + std::to_string(s.heads) +
                         " heads. Fix config.json.");
    if (!t.activationKey.empty())
        if (const auto act = json.find(t.activationKey); act != json.end() && *act != t.activation)
            throw InputError(source + ": " + t.activationKey + " is " + quotedText(act->dump()) +
                             "; HeadLens runs " + t.activationMeaning + ".");
    return s;
}

ModelSpec ModelSpec::read(const std::string &path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw InputError("Cannot read " + path +
                         ": a model folder needs Hugging Face's config.json beside its weights "
                         "and tokenizer (for GPT-2: " +
                         FamilyTable::find("gpt2")->folderContents + ").");
    std::ostringstream text;
    text << file.rdbuf();
    return fromJson(text.str(), path);
}

} // namespace headlens
