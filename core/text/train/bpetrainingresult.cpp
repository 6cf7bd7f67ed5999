// BpeTrainingResult: the vocabulary as a map and the sentence about a short vocabulary.
#include "text/train/bpetrainingresult.h"

namespace headlens {

BpeModel::Vocabulary BpeTrainingResult::vocabulary() const
{
    BpeModel::Vocabulary vocabulary;
    vocabulary.reserve(tokens.size());
    for (size_t id = 0; id < tokens.size(); ++id)
        vocabulary.emplace(tokens[id], static_cast<int>(id));
    return vocabulary;
}

std::optional<std::string> BpeTrainingResult::shortfall() const
{
    if (stop == Stop::VocabularyFull)
        return std::nullopt;
    const std::string got = "The vocabulary has " + std::to_string(tokens.size()) +
                            " tokens, not the " + std::to_string(vocabularySizeAsked) +
                            " asked for: ";
    const std::string merged = std::to_string(merges.size()) + " merges";
    if (stop == Stop::NoPairLeft)
        return got + "the text allows only " + merged +
               " (every word is one token by then). Train on more text or ask for fewer tokens.";
    return got + "after " + merged +
           ", no pair of tokens occurs often enough. Lower the minimum frequency, train on more "
           "text or ask for fewer tokens.";
}

} // namespace headlens
