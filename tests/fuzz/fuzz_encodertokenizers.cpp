// Fuzz target: the encoders' slow tokenizer files (tokenizer_config.json, BERT's vocab.txt,
// RoBERTa's vocab.json + merges.txt), then encoding a text, a mask and a pair.
#include "fuzzinput.h"
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
    const std::vector<std::string> parts =
        headlens::fuzz::splitInput(data, size, 4, std::string(1, '\0'));
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
