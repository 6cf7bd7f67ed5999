// Gpt2Config: config.json parsed with nlohmann-json and checked before any tensor is read.
#include "model/gpt2config.h"

#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace headlens {

namespace {

/// Keeps `value` when `key` is absent; otherwise it must be a whole number in [1, limit].
void readSize(const nlohmann::json &json, const char *key, int limit, int &value,
              const std::string &source, bool nullable = false)
{
    const auto found = json.find(key);
    if (found == json.end() || (nullable && found->is_null()))
        return;
    if (!found->is_number_integer() || found->get<int64_t>() < 1 || found->get<int64_t>() > limit)
        throw InputError(source + ": \"" + key + "\" is " + quotedText(found->dump()) +
                         ", but it must be a whole number from 1 to " + std::to_string(limit) +
                         ". Fix config.json or download it again.");
    value = found->get<int>();
}

} // namespace

Gpt2Config Gpt2Config::fromJson(const std::string &text, const std::string &source)
{
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded() || !json.is_object())
        throw InputError(source + " is not a JSON object like Hugging Face's GPT-2 config.json. "
                                  "Download it again.");
    Gpt2Config c;
    readSize(json, "n_layer", 1024, c.nLayer, source);
    readSize(json, "n_head", 1024, c.nHead, source);
    readSize(json, "n_embd", 65536, c.nEmbd, source);
    readSize(json, "n_positions", 1 << 20, c.nPositions, source);
    readSize(json, "vocab_size", 1'000'000, c.vocabSize, source);
    readSize(json, "n_inner", 1 << 20, c.nInner, source, true);
    if (const auto eps = json.find("layer_norm_epsilon"); eps != json.end()) {
        if (!eps->is_number() || !(eps->get<double>() > 0.0 && eps->get<double>() < 1.0))
            throw InputError(source + ": \"layer_norm_epsilon\" is " + quotedText(eps->dump()) +
                             ", but it must be a small positive number such as 1e-05.");
        c.layerNormEpsilon = eps->get<float>();
    }
    if (c.nEmbd % c.nHead != 0)
        throw InputError(source + ": n_embd " + std::to_string(c.nEmbd) +
                         " cannot be split over n_head " + std::to_string(c.nHead) +
                         " heads. Fix config.json.");
    if (const auto act = json.find("activation_function"); act != json.end() && *act != "gelu_new")
        throw InputError(source + ": activation_function is " + quotedText(act->dump()) +
                         "; HeadLens runs GPT-2's \"gelu_new\" (the tanh approximation of GELU).");
    return c;
}

Gpt2Config Gpt2Config::read(const std::string &path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw InputError("Cannot read " + path +
                         ": a GPT-2 folder needs config.json, model.safetensors, vocab.json "
                         "and merges.txt.");
    std::ostringstream text;
    text << file.rdbuf();
    return fromJson(text.str(), path);
}

} // namespace headlens
