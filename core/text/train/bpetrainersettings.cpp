// BpeTrainerSettings: GPT-2's setup and the checks a person can act on.
#include "text/train/bpetrainersettings.h"

#include <set>

namespace headlens {

BpeTrainerSettings BpeTrainerSettings::gpt2(int vocabularySize)
{
    BpeTrainerSettings settings;
    settings.vocabularySize = vocabularySize;
    settings.specialTokens = {"<|endoftext|>"};
    return settings;
}

std::optional<std::string> BpeTrainerSettings::validate() const
{
    if (vocabularySize < 1)
        return "The vocabulary size must be at least 1 (try 4096), got " +
               std::to_string(vocabularySize) + ".";
    std::set<std::string> seen;
    for (const std::string &token : specialTokens) {
        if (token.empty())
            return std::string("A special token is empty: give each one some text, such as "
                               "\"<|endoftext|>\".");
        if (!seen.insert(token).second)
            return "The special token \"" + token + "\" is listed twice: list it once.";
    }
    return std::nullopt;
}

} // namespace headlens
