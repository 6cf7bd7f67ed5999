// byteTokenizerJson: the vocabulary of the 256 byte symbols, written with nlohmann::json.
#include "text/bytetokenizerjson.h"

#include "text/pipeline/bytelevelalphabet.h"

#include <nlohmann/json.hpp>

namespace headlens {

std::string byteTokenizerJson()
{
    const ByteLevelAlphabet alphabet;
    nlohmann::ordered_json vocab = nlohmann::ordered_json::object();
    for (int byte = 0; byte < 256; ++byte)
        vocab[alphabet.symbol(static_cast<unsigned char>(byte))] = byte;
    const nlohmann::ordered_json byteLevel = {{"type", "ByteLevel"},
                                              {"add_prefix_space", false},
                                              {"trim_offsets", true},
                                              {"use_regex", true}};
    const nlohmann::ordered_json json = {
        {"version", "1.0"},
        {"truncation", nullptr},
        {"padding", nullptr},
        {"added_tokens", nlohmann::ordered_json::array()},
        {"normalizer", nullptr},
        {"pre_tokenizer", byteLevel},
        {"post_processor", nullptr},
        {"decoder", byteLevel},
        {"model",
         {{"type", "BPE"},
          {"dropout", nullptr},
          {"unk_token", nullptr},
          {"continuing_subword_prefix", nullptr},
          {"end_of_word_suffix", nullptr},
          {"fuse_unk", false},
          {"byte_fallback", false},
          {"ignore_merges", false},
          {"vocab", vocab},
          {"merges", nlohmann::ordered_json::array()}}},
    };
    return json.dump(2) + "\n";
}

} // namespace headlens
