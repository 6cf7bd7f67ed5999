// Fuzz target: ToyModelFile::parse on any bytes must return or throw InputError; a model it
// returns has settings HeadLens can use and runs on a sequence.
#include "train/toymodelfile.h"
#include "util/inputerror.h"

#include <cstdint>
#include <string>
#include <vector>

/// Seeds: tests/fuzz/regressions/toymodel (toy models saved by ToyModelFile::save).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string bytes(reinterpret_cast<const char *>(data), size);
    try {
        const headlens::TrainedModel model = headlens::ToyModelFile::parse(bytes, "fuzz");
        if (model.settings.validate() || model.steps < 0)
            __builtin_trap();
        // Weights may hold anything (NaN included); running them must still not crash.
        std::vector<int> tokens;
        for (int i = 0; i < model.settings.model.maxLength; ++i)
            tokens.push_back(i % model.settings.model.vocabulary);
        const std::vector<int> predicted = model.predictions(tokens);
        if (predicted.size() != tokens.size())
            __builtin_trap();
        (void)model.attention(tokens);
    } catch (const headlens::InputError &) {
    }
    return 0;
}
