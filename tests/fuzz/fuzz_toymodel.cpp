// Fuzz target: ToyModelFile::parse on any bytes must return or throw InputError; a model it
// returns has settings HeadLens can use and runs on a sequence.
#include "fuzzinput.h"
#include "io/npyfile.h"
#include "io/npzarchive.h"
#include "train/toymodelfile.h"
#include "util/inputerror.h"

#include <cstdint>
#include <string>
#include <vector>

namespace {

const std::string kArrays = "arrays\n";

// "arrays\n" then members "<name>\n<.npy bytes>" joined by "#member#": the archive is built
// here, so mutations reach the settings and the shapes past the zip CRCs. Members that are not
// .npy are dropped (fuzz_npy covers them).
std::string archiveOf(const std::string &input)
{
    const auto *data = reinterpret_cast<const uint8_t *>(input.data()) + kArrays.size();
    std::vector<std::pair<std::string, headlens::Tensor>> entries;
    for (const std::string &member :
         headlens::fuzz::splitInput(data, input.size() - kArrays.size(), 64, "#member#")) {
        const size_t newline = member.find('\n');
        if (newline == std::string::npos)
            continue;
        try {
            headlens::Tensor tensor = headlens::NpyFile::parse(member.substr(newline + 1), "m");
            if (tensor.numel() > 0)
                entries.emplace_back(member.substr(0, newline), std::move(tensor));
        } catch (const headlens::InputError &) {
        }
    }
    return headlens::NpzArchive::serialize(entries, false, "fuzz");
}

} // namespace

/// The input is a toy model .npz, or the arrays of one (see archiveOf). Seeds:
/// tests/fuzz/regressions/toymodel (toy models saved by ToyModelFile::save, and as arrays).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string input(reinterpret_cast<const char *>(data), size);
    try {
        const bool arrays = input.compare(0, kArrays.size(), kArrays) == 0;
        const headlens::TrainedModel model =
            headlens::ToyModelFile::parse(arrays ? archiveOf(input) : input, "fuzz");
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
