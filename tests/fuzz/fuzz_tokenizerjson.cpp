// Fuzz target: TokenizerJson::fromText on any tokenizer.json, then encoding, labels and decoding.
#include "text/tokenizerjson.h"
#include "tokenizerchecks.h"
#include "util/inputerror.h"

#include <cstdint>
#include <string>

/// The input is a tokenizer.json, then optionally a NUL byte and a text to encode besides a
/// fixed one. Seeds: the small tokenizer files of tests/data/tokenizers. Every id a tokenizer
/// gives must name a token, and labels, decoding and pairs must not crash.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string input(reinterpret_cast<const char *>(data), size);
    const size_t split = input.find('\0');
    const std::string json = input.substr(0, split);
    const std::string text = split == std::string::npos ? "" : input.substr(split + 1);
    try {
        const headlens::TokenizerPipeline tokenizer =
            headlens::TokenizerJson::fromText(json, "tokenizer.json");
        headlens::fuzz::exerciseTokenizer(
            tokenizer, {text, std::string("Hello, <s> wörld! 12345 \xF0\x9F\x91\x8D\n")}, "a b");
    } catch (const headlens::InputError &) {
    }
    return 0;
}
