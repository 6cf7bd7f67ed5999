// Fuzz target: BpeTokenizer::fromText on any vocab.json / merges.txt, then encoding a sentence.
#include "fuzzinput.h"
#include "text/bpetokenizer.h"
#include "util/inputerror.h"

#include <cstdint>
#include <string>

/// The input is vocab.json, a NUL byte, then merges.txt. Seeds: the tiny checkpoint's files.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::vector<std::string> parts =
        headlens::fuzz::splitInput(data, size, 2, std::string(1, '\0'));
    const std::string &vocab = parts[0], &merges = parts[1];
    try {
        const headlens::BpeTokenizer tokenizer =
            headlens::BpeTokenizer::fromText(vocab, merges, "vocab.json", "merges.txt");
        for (int id : tokenizer.encode("Hello, world! It's 2019 \xF0\x9F\x91\x8D\n"))
            if (!tokenizer.contains(id))
                __builtin_trap();
    } catch (const headlens::InputError &) {
    }
    return 0;
}
