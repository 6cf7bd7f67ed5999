// Fuzz target: a text a person chose to train a language model on. TrainingText::check on any
// bytes must return or throw InputError; a text it accepts that is long enough for a context
// gives windows of its own bytes whose targets are the next ones, in both parts.
#include "train/textbatches.h"
#include "train/trainingtext.h"
#include "util/inputerror.h"

#include <cstdint>
#include <string>
#include <vector>

/// The input's first byte chooses the context (2 to 65 tokens); the rest is the text. Seeds:
/// tests/fuzz/regressions/trainingtext (stories, UTF-8 with accents, a binary and a Latin-1
/// file, an empty one).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const int length = 2 + data[0] % 64;
    const std::string text(reinterpret_cast<const char *>(data) + 1, size - 1);
    try {
        headlens::TrainingText::check(text, "fuzz");
    } catch (const headlens::InputError &) {
        return 0;
    }
    if (text.empty() || text.find('\0') != std::string::npos)
        __builtin_trap(); // accepted what it must refuse
    if (headlens::TextBatches::validate(text.size(), length))
        return 0;
    std::vector<int> tokens(text.begin(), text.end());
    for (int &token : tokens)
        token = static_cast<unsigned char>(token);
    const headlens::TextBatches batches(tokens, length);
    for (uint64_t stream :
         {headlens::BatchSource::kTrainStream, headlens::BatchSource::kHeldOutStream}) {
        const headlens::ToyBatch batch = batches.batch(7, stream, 0, 4);
        if (batch.tokens.size() != size_t(4 * length) ||
            batch.targets.size() != batch.tokens.size())
            __builtin_trap();
        for (size_t r = 0; r < batch.tokens.size(); ++r)
            if (batch.tokens[r] < 0 || batch.tokens[r] > 255 || batch.targets[r] < 0 ||
                batch.targets[r] > 255 ||
                (r % size_t(length) + 1 < size_t(length) &&
                 batch.targets[r] != batch.tokens[r + 1]))
                __builtin_trap();
    }
    return 0;
}
