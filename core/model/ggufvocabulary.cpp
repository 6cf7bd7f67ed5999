// GgufVocabulary: llama.cpp's tokenizer metadata (gguf-py's Keys.Tokenizer) written as the
// tokenizer.json of transformers' converters (convert_slow_tokenizer.py).
#include "model/ggufvocabulary.h"

#include "text/tokenizerjson.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <unordered_map>

namespace headlens {

namespace {

using Json = nlohmann::json;

// llama.cpp's token types (llama_token_type).
constexpr int kUnknown = 2;
constexpr int kControl = 3;
constexpr int kUserDefined = 4;

// The pre-tokenizers of the byte-level BPE files whose tokenizer.ggml.pre HeadLens knows,
// as their Hugging Face tokenizer.json files spell them.
const char *const kLlama3Split =
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| "
    "?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const char *const kQwen2Split =
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| "
    "?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

Json byteLevel(bool useRegex)
{
    return {{"type", "ByteLevel"},
            {"add_prefix_space", false},
            {"trim_offsets", true},
            {"use_regex", useRegex}};
}

Json splitThenBytes(const char *pattern)
{
    return {{"type", "Sequence"},
            {"pretokenizers", Json::array({{{"type", "Split"},
                                            {"pattern", {{"Regex", pattern}}},
                                            {"behavior", "Isolated"},
                                            {"invert", false}},
                                           byteLevel(false)})}};
}

class Builder
{
public:
    explicit Builder(const GgufFile &file) : m_file(file) {}

    std::string build()
    {
        const GgufValue *tokens = m_file.find("tokenizer.ggml.tokens");
        if (!tokens || !tokens->isArrayOf(GgufType::String) || tokens->texts.empty())
            fail("has no tokenizer.ggml.tokens (an array of strings), so HeadLens cannot "
                 "tokenize for it. Convert the model again with llama.cpp's "
                 "convert_hf_to_gguf.py, which writes the tokenizer into the file");
        m_tokens = &tokens->texts;
        m_types = numbers("tokenizer.ggml.token_type", false);
        const std::optional<std::string> model = m_file.text("tokenizer.ggml.model");
        Json root = {{"version", "1.0"}, {"truncation", nullptr}, {"padding", nullptr}};
        if (model == "gpt2")
            byteLevelBpe(root);
        else if (model == "llama")
            sentencePiece(root);
        else
            fail("tokenizer.ggml.model is \"" + quotedText(model.value_or("")) +
                 "\", which HeadLens does not tokenize with (it reads \"gpt2\", a byte-level "
                 "BPE, and \"llama\", SentencePiece's scores). Open the model's Hugging Face "
                 "folder, whose tokenizer.json HeadLens reads");
        root["added_tokens"] = addedTokens();
        root["post_processor"] = template_();
        return root.dump(-1, ' ', false, Json::error_handler_t::replace);
    }

private:
    [[noreturn]] void fail(const std::string &what) const
    {
        throw InputError(m_file.path() + " " + what + ".");
    }

    /// A numeric array as long as the tokens; empty when absent and not required.
    std::vector<double> numbers(const std::string &key, bool required) const
    {
        const GgufValue *value = m_file.find(key);
        if (!value) {
            if (required)
                fail("has no " + key + ", which its tokenizer model needs");
            return {};
        }
        if (value->type != GgufType::Array || value->elementType == GgufType::String ||
            value->numbers.size() != m_tokens->size())
            fail("has a " + key + " that is not an array of " + std::to_string(m_tokens->size()) +
                 " numbers, one per token");
        return value->numbers;
    }

    int typeOf(size_t id) const { return m_types.empty() ? 1 : int(m_types[id]); }

    Json vocabulary() const
    {
        Json vocab = Json::object();
        for (size_t id = 0; id < m_tokens->size(); ++id)
            vocab[(*m_tokens)[id]] = id; // a repeated token keeps its last id, as a dict does
        return vocab;
    }

    void byteLevelBpe(Json &root) const
    {
        const std::string pre = m_file.text("tokenizer.ggml.pre").value_or("default");
        bool ignoreMerges = false;
        root["normalizer"] = nullptr;
        if (pre == "default" || pre == "gpt-2") {
            root["pre_tokenizer"] = byteLevel(true);
        } else if (pre == "llama-bpe" || pre == "llama3") {
            root["pre_tokenizer"] = splitThenBytes(kLlama3Split);
            ignoreMerges = true;
        } else if (pre == "qwen2") {
            root["normalizer"] = {{"type", "NFC"}};
            root["pre_tokenizer"] = splitThenBytes(kQwen2Split);
        } else {
            fail("has tokenizer.ggml.pre \"" + quotedText(pre) +
                 "\", a pre-tokenizer HeadLens does not know (it knows \"gpt-2\", \"default\", "
                 "\"llama-bpe\" and \"qwen2\"). Open the model's Hugging Face folder, whose "
                 "tokenizer.json HeadLens reads");
        }
        const GgufValue *merges = m_file.find("tokenizer.ggml.merges");
        if (!merges || !merges->isArrayOf(GgufType::String))
            fail("has no tokenizer.ggml.merges (an array of strings), which a byte-level BPE "
                 "needs");
        root["decoder"] = byteLevel(true);
        root["model"] = {{"type", "BPE"},
                         {"dropout", nullptr},
                         {"unk_token", nullptr},
                         {"continuing_subword_prefix", nullptr},
                         {"end_of_word_suffix", nullptr},
                         {"fuse_unk", false},
                         {"byte_fallback", false},
                         {"ignore_merges", ignoreMerges},
                         {"vocab", vocabulary()},
                         {"merges", merges->texts}};
    }

    /// transformers' SentencePieceExtractor.extract with scores: every split of a piece into
    /// two pieces of the vocabulary is a merge; a piece's merges ordered by the ids of their
    /// halves, then all merges by the merged piece's score, highest first (a stable sort).
    Json mergesByScore(const std::vector<double> &scores) const
    {
        std::unordered_map<std::string, size_t> ids;
        for (size_t id = 0; id < m_tokens->size(); ++id)
            ids[(*m_tokens)[id]] = id;
        struct Merge
        {
            size_t left, right;
            double score;
        };
        std::vector<Merge> merges;
        for (size_t id = 0; id < m_tokens->size(); ++id) {
            const std::string &piece = (*m_tokens)[id];
            std::vector<Merge> local;
            for (size_t cut = 1; cut < piece.size(); ++cut) {
                const auto left = ids.find(piece.substr(0, cut));
                const auto right = ids.find(piece.substr(cut));
                if (left != ids.end() && right != ids.end())
                    local.push_back({left->second, right->second, scores[id]});
            }
            std::sort(local.begin(), local.end(), [](const Merge &a, const Merge &b) {
                return a.left != b.left ? a.left < b.left : a.right < b.right;
            });
            merges.insert(merges.end(), local.begin(), local.end());
        }
        std::stable_sort(merges.begin(), merges.end(),
                         [](const Merge &a, const Merge &b) { return a.score > b.score; });
        Json list = Json::array();
        for (const Merge &m : merges)
            list.push_back({(*m_tokens)[m.left], (*m_tokens)[m.right]});
        return list;
    }

    void sentencePiece(Json &root) const
    {
        const std::vector<double> scores = numbers("tokenizer.ggml.scores", true);
        std::string unknown;
        for (size_t id = 0; id < m_tokens->size(); ++id)
            if (typeOf(id) == kUnknown && unknown.empty())
                unknown = (*m_tokens)[id];
        root["normalizer"] = {
            {"type", "Sequence"},
            {"normalizers",
             Json::array(
                 {{{"type", "Prepend"}, {"prepend", "\u2581"}},
                  {{"type", "Replace"}, {"pattern", {{"String", " "}}}, {"content", "\u2581"}}})}};
        root["pre_tokenizer"] = nullptr;
        root["decoder"] = {
            {"type", "Sequence"},
            {"decoders",
             Json::array(
                 {{{"type", "Replace"}, {"pattern", {{"String", "\u2581"}}}, {"content", " "}},
                  {{"type", "ByteFallback"}},
                  {{"type", "Fuse"}},
                  {{"type", "Strip"}, {"content", " "}, {"start", 1}, {"stop", 0}}})}};
        root["model"] = {{"type", "BPE"},
                         {"dropout", nullptr},
                         {"unk_token", unknown.empty() ? Json(nullptr) : Json(unknown)},
                         {"continuing_subword_prefix", nullptr},
                         {"end_of_word_suffix", nullptr},
                         {"fuse_unk", true},
                         {"byte_fallback", true},
                         {"vocab", vocabulary()},
                         {"merges", mergesByScore(scores)}};
    }

    /// Control and user-defined tokens (and the unknown token) match before the model runs.
    Json addedTokens() const
    {
        Json added = Json::array();
        for (size_t id = 0; id < m_tokens->size(); ++id) {
            const int type = typeOf(id);
            if (type != kControl && type != kUserDefined && type != kUnknown)
                continue;
            added.push_back({{"id", id},
                             {"content", (*m_tokens)[id]},
                             {"single_word", false},
                             {"lstrip", false},
                             {"rstrip", false},
                             {"normalized", type == kUserDefined},
                             {"special", type != kUserDefined}});
        }
        return added;
    }

    /// The token at the id `key` names, when the file adds it (`addKey`, else `byDefault`).
    std::optional<std::string> added(const std::string &key, const std::string &addKey,
                                     bool byDefault) const
    {
        const std::optional<double> flag = m_file.number(addKey);
        const std::optional<double> id = m_file.number(key);
        if (!(flag ? *flag != 0 : byDefault) || !id ||
            !(*id >= 0 && *id < double(m_tokens->size()))) // NaN too
            return std::nullopt;
        return (*m_tokens)[size_t(*id)];
    }

    /// BOS / EOS around every text, as LlamaTokenizerFast.update_post_processor writes them;
    /// a byte-level BPE without them gets GPT-2's ByteLevel post-processor (no change).
    Json template_() const
    {
        const bool spm = m_file.text("tokenizer.ggml.model") == "llama";
        const std::optional<std::string> bos =
            added("tokenizer.ggml.bos_token_id", "tokenizer.ggml.add_bos_token", spm);
        const std::optional<std::string> eos =
            added("tokenizer.ggml.eos_token_id", "tokenizer.ggml.add_eos_token", false);
        if (!bos && !eos)
            return spm ? Json(nullptr) : byteLevel(true);
        Json single = Json::array(), pair = Json::array(), special = Json::object();
        auto token = [&](const std::string &text, int typeId) {
            return Json{{"SpecialToken", {{"id", text}, {"type_id", typeId}}}};
        };
        auto sequence = [](const char *id, int typeId) {
            return Json{{"Sequence", {{"id", id}, {"type_id", typeId}}}};
        };
        auto ids = [&](const std::string &text) {
            const auto at = std::find(m_tokens->begin(), m_tokens->end(), text);
            return Json{{"id", text},
                        {"ids", Json::array({at - m_tokens->begin()})},
                        {"tokens", Json::array({text})}};
        };
        for (int part = 0; part < 2; ++part) {
            Json &list = part == 0 ? single : pair;
            if (part == 1)
                list = single;
            if (bos)
                list.push_back(token(*bos, part));
            list.push_back(sequence(part == 0 ? "A" : "B", part));
            if (eos)
                list.push_back(token(*eos, part));
        }
        if (bos)
            special[*bos] = ids(*bos);
        if (eos)
            special[*eos] = ids(*eos);
        return {{"type", "TemplateProcessing"},
                {"single", single},
                {"pair", pair},
                {"special_tokens", special}};
    }

    const GgufFile &m_file;
    const std::vector<std::string> *m_tokens = nullptr;
    std::vector<double> m_types;
};

} // namespace

std::string GgufVocabulary::tokenizerJson(const GgufFile &file)
{
    return Builder(file).build();
}

TokenizerPipeline GgufVocabulary::tokenizer(const GgufFile &file)
{
    return TokenizerJson::fromText(tokenizerJson(file), file.path() + " (its tokenizer)");
}

} // namespace headlens
