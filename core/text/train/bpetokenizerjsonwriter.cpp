// BpeTokenizerJsonWriter: nlohmann::ordered_json stays inside this file, in tokenizers' key order.
#include "text/train/bpetokenizerjsonwriter.h"

#include "io/atomicfile.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace headlens {

namespace {

using json = nlohmann::ordered_json;

json addedTokens(const BpeTrainingResult &result)
{
    json tokens = json::array();
    for (const std::string &content : result.specialTokens) {
        const auto id =
            std::find(result.tokens.begin(), result.tokens.end(), content) - result.tokens.begin();
        tokens.push_back({{"id", id},
                          {"content", content},
                          {"single_word", false},
                          {"lstrip", false},
                          {"rstrip", false},
                          {"normalized", false},
                          {"special", true}});
    }
    return tokens;
}

json byteLevel(bool addPrefixSpace, bool trimOffsets)
{
    return {{"type", "ByteLevel"},
            {"add_prefix_space", addPrefixSpace},
            {"trim_offsets", trimOffsets},
            {"use_regex", true}};
}

json model(const BpeTrainingResult &result)
{
    json vocab = json::object();
    for (size_t id = 0; id < result.tokens.size(); ++id)
        vocab[result.tokens[id]] = id;
    json merges = json::array();
    for (const auto &[left, right] : result.merges)
        merges.push_back({left, right});
    return {{"type", "BPE"},
            {"dropout", nullptr},
            {"unk_token", nullptr},
            {"continuing_subword_prefix", nullptr},
            {"end_of_word_suffix", nullptr},
            {"fuse_unk", false},
            {"byte_fallback", false},
            {"ignore_merges", false},
            {"vocab", std::move(vocab)},
            {"merges", std::move(merges)}};
}

} // namespace

std::string BpeTokenizerJsonWriter::toJson(const BpeTrainingResult &result)
{
    const json file = {{"version", "1.0"},
                       {"truncation", nullptr},
                       {"padding", nullptr},
                       {"added_tokens", addedTokens(result)},
                       {"normalizer", nullptr},
                       {"pre_tokenizer", byteLevel(false, true)},
                       {"post_processor", byteLevel(false, false)},
                       {"decoder", byteLevel(false, true)},
                       {"model", model(result)}};
    // Tokens are valid UTF-8 (byte symbols and special tokens), so dump() never throws; a
    // special token given with broken bytes is written with U+FFFD rather than refused.
    return file.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

void BpeTokenizerJsonWriter::write(const std::string &path, const BpeTrainingResult &result)
{
    AtomicFile::write(path, toJson(result));
}

} // namespace headlens
