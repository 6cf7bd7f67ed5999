// GgufConfig: llama.cpp's metadata keys (gguf-py's constants.py, Keys.LLM / Keys.Attention /
// Keys.Rope) mapped onto the family table's config.json keys.
#include "model/ggufconfig.h"

#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <nlohmann/json.hpp>

namespace headlens {

const FamilyTable &GgufConfig::family(const GgufFile &file)
{
    const std::optional<std::string> architecture = file.text("general.architecture");
    if (!architecture)
        throw InputError(file.path() + " has no general.architecture string, so HeadLens cannot "
                                       "tell which model it holds. Convert the model again with "
                                       "llama.cpp's convert_hf_to_gguf.py.");
    const FamilyTable *table = FamilyTable::findGguf(*architecture);
    if (!table)
        throw InputError(file.path() + ": general.architecture is \"" + quotedText(*architecture) +
                         "\", which HeadLens does not run from a GGUF file (it runs " +
                         FamilyTable::knownGgufArchitectures() +
                         "). Open the model's Hugging Face folder instead, if HeadLens runs its "
                         "family.");
    return *table;
}

std::string GgufConfig::configJson(const GgufFile &file)
{
    const FamilyTable &t = family(file);
    const std::string arch = t.gguf.architecture + ".";
    nlohmann::json json = nlohmann::json::object();
    json["model_type"] = t.modelType;
    // A number as config.json holds it: integers as integers (ConfigReader::size wants them).
    auto jsonNumber = [](const GgufValue &value) {
        return value.isInteger() ? nlohmann::json(int64_t(value.number))
                                 : nlohmann::json(value.number);
    };
    // `gguf`'s number under the config key `key` (nothing when the family has no such key).
    auto copy = [&](const std::string &gguf, const std::string &key, bool required) {
        const GgufValue *value = file.find(arch + gguf);
        if (value && !value->isNumber())
            value = nullptr;
        if (!value && required)
            throw InputError(file.path() + " has no number " + arch + gguf + ", which a " +
                             t.displayName +
                             " needs. The file is damaged or was not written by llama.cpp: "
                             "convert the model again.");
        if (value && !key.empty())
            json[key] = jsonNumber(*value);
    };
    copy("block_count", t.layers.key, true);
    copy("embedding_length", t.dModel.key, true);
    copy("attention.head_count", t.heads.key, true);
    copy("feed_forward_length", t.mlpWidth.key, true);
    copy("attention.head_count_kv", t.kvHeads.key, false);
    copy("attention.key_length", t.headDim.key, false);
    copy("context_length", t.contextLength.key, false);
    copy("rope.freq_base", t.ropeTheta.key, false);
    copy(t.norm == NormKind::RmsNorm ? "attention.layer_norm_rms_epsilon"
                                     : "attention.layer_norm_epsilon",
         t.normEpsilon.key, false);
    // The vocabulary is the token embedding's rows, as llama.cpp takes it.
    if (const GgufTensorInfo *embedding = file.tensor(t.gguf.tensors.embedding))
        json[t.vocabSize.key] = embedding->shape().front();
    else if (const GgufValue *tokens = file.find("tokenizer.ggml.tokens"))
        json[t.vocabSize.key] = tokens->texts.size();
    if (const std::optional<std::string> type = file.text(arch + "rope.scaling.type");
        type && *type != "none" && !t.ropeScalingKey.empty()) {
        nlohmann::json scaling = {{"rope_type", *type}};
        if (const std::optional<double> factor = file.number(arch + "rope.scaling.factor"))
            scaling["factor"] = *factor;
        if (const GgufValue *original = file.find(arch + "rope.scaling.original_context_length");
            original && original->isNumber())
            scaling["original_max_position_embeddings"] = jsonNumber(*original);
        json[t.ropeScalingKey] = scaling;
    }
    if (!t.tieKey.empty())
        json[t.tieKey] = file.tensor(t.gguf.tensors.outputHead) == nullptr;
    if (!t.activationKey.empty())
        json[t.activationKey] = t.activation; // llama.cpp's graph for the family runs it
    for (const char *id : {"bos_token_id", "eos_token_id"})
        if (const GgufValue *value = file.find(std::string("tokenizer.ggml.") + id);
            value && value->isInteger())
            json[id] = jsonNumber(*value);
    return json.dump();
}

ModelSpec GgufConfig::spec(const GgufFile &file)
{
    return ModelSpec::fromJson(configJson(file), file.path());
}

} // namespace headlens
