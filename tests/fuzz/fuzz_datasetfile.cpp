// Fuzz target: a dataset file a person wrote (headlens-cli --dataset). Every line through
// DatasetFile::prompt, as DatasetFile::read takes them, must return or throw InputError; a pair
// it accepts has its four fields, none empty.
#include "corpus/datasetfile.h"
#include "util/inputerror.h"

#include <cstdint>
#include <sstream>
#include <string>

/// The input is the file's bytes. Seeds: tests/fuzz/regressions/datasetfile (texts, pairs,
/// broken and deeply nested JSON, a number where a string belongs, Latin-1 bytes).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    std::istringstream file(std::string(reinterpret_cast<const char *>(data), size));
    std::string line;
    int64_t number = 0;
    bool first = true, pairs = false;
    while (std::getline(file, line)) {
        ++number;
        if (first)
            pairs = headlens::DatasetFile::startsPairs(line);
        first = false;
        try {
            const headlens::DatasetPrompt prompt =
                headlens::DatasetFile::prompt(line, number, pairs, "fuzz");
            if (prompt.line != number ||
                (pairs && (prompt.clean.empty() || prompt.text.empty() || prompt.answer.empty() ||
                           prompt.wrong.empty())) ||
                (!pairs && prompt.text != line))
                __builtin_trap(); // accepted a pair without its fields, or changed a text
        } catch (const headlens::InputError &) {
        }
    }
    return 0;
}
