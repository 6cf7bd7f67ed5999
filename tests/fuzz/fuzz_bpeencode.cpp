// Fuzz target: BpeTokenizer::encode on any bytes: valid ids, and decoding gives the text back.
#include "text/bpetokenizer.h"
#include "text/tokenizer.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const headlens::BpeTokenizer tokenizer = headlens::BpeTokenizer::load(
        HEADLENS_TEST_DATA "/gpt2/tiny/vocab.json", HEADLENS_TEST_DATA "/gpt2/tiny/merges.txt");
    const std::string text(reinterpret_cast<const char *>(data), size);
    const std::vector<int> ids = tokenizer.encode(text);
    for (int id : ids)
        if (!tokenizer.contains(id))
            __builtin_trap();
    // Byte-level BPE loses nothing: decoding gives back the (UTF-8-repaired) text.
    if (tokenizer.decode(ids) != headlens::Tokenizer::toValidUtf8(text))
        __builtin_trap();
    for (int id : ids)
        (void)tokenizer.displayLabel(id);
    return 0;
}
