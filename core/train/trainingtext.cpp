// TrainingText: WholeFile's read, then the checks for an empty or binary file.
#include "train/trainingtext.h"

#include "io/wholefile.h"
#include "text/tokenizer.h"
#include "util/inputerror.h"

#include <algorithm>

namespace headlens {

namespace {

/// The offset of the first byte that does not belong to a UTF-8 sequence, or npos: where the
/// text and its repair (Tokenizer::toValidUtf8, U+FFFD for every ill-formed part) part ways.
size_t firstInvalidUtf8(const std::string &text)
{
    const std::string repaired = Tokenizer::toValidUtf8(text);
    if (repaired == text)
        return std::string::npos;
    return size_t(std::mismatch(text.begin(), text.end(), repaired.begin(), repaired.end()).first -
                  text.begin());
}

} // namespace

std::string TrainingText::read(const std::string &path)
{
    std::string text = WholeFile::read(path, kMaxBytes, "a training text");
    check(text, path);
    return text;
}

void TrainingText::check(const std::string &text, const std::string &name)
{
    if (text.empty())
        throw InputError(name + " is empty: choose a plain-text file with the text to learn, or "
                                "train on the generated stories.");
    const size_t zero = text.find('\0');
    if (zero != std::string::npos)
        throw InputError(name + " looks binary (a zero byte at offset " + std::to_string(zero) +
                         "): choose a plain-text file (.txt) in UTF-8.");
    const size_t invalid = firstInvalidUtf8(text);
    if (invalid != std::string::npos)
        throw InputError(name + " is not UTF-8 text (byte " + std::to_string(invalid) +
                         " starts no character): save it as UTF-8 plain text and try again.");
}

} // namespace headlens
