// Fuzz target: the encoders' slow tokenizer files (tokenizer_config.json, BERT's vocab.txt,
// RoBERTa's vocab.json + merges.txt), then encoding a text, a mask and a pair.
#include "text/bertwordpiecefiles.h"
#include "text/robertabpefiles.h"
#include "text/tokenizerconfig.h"
#include "tokenizerchecks.h"
#include "util/inputerror.h"

#include <cstdint>
#include <string>
#include <vector>

namespace {

void exercise(const headlens::TokenizerPipeline &tokenizer)
{
    headlens::fuzz::exerciseTokenizer(
        tokenizer,
        {"The cat sat on the [MASK] . Café naïve 東京 \xF0\x9F\x91\x8D", "x <mask>.", ""},
        "the dog ran!");
}

} // namespace

/// The input is tokenizer_config.json, NUL, vocab.txt, NUL, vocab.json, NUL, merges.txt (a
/// missing part is empty). Seeds: tests/fuzz/regressions/encodertokenizers. Each part is
/// parsed alone as well as with the config, so a bad config does not hide the vocabularies.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string input(reinterpret_cast<const char *>(data), size);
    std::vector<std::string> parts(4);
    size_t at = 0;
    for (size_t k = 0; k < parts.size() && at <= input.size(); ++k) {
        const size_t end = std::min(input.find('\0', at), input.size());
        parts[k] = input.substr(at, end - at);
        at = end + 1;
    }
    headlens::TokenizerConfig config;
    try {
        config = headlens::TokenizerConfig::fromText(parts[0], "tokenizer_config.json");
    } catch (const headlens::InputError &) {
    }
    try {
        exercise(headlens::BertWordPieceFiles::fromText(parts[1], "vocab.txt", config));
    } catch (const headlens::InputError &) {
    }
    try {
        exercise(headlens::RobertaBpeFiles::fromText(parts[2], parts[3], "vocab.json", "merges.txt",
                                                     config));
    } catch (const headlens::InputError &) {
    }
    return 0;
}
