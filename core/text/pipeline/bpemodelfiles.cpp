// BpeModelFiles: vocab.json and merges.txt parsing with a message for every problem.
#include "text/pipeline/bpemodelfiles.h"

#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <nlohmann/json.hpp>

#include <sstream>
#include <unordered_set>

namespace headlens {

BpeModel::Vocabulary BpeModelFiles::readVocab(const std::string &json, const std::string &name)
{
    const nlohmann::json vocab = nlohmann::json::parse(json, nullptr, false);
    if (vocab.is_discarded() || !vocab.is_object())
        throw InputError(name + " is not a JSON object of tokens and ids, as GPT-2's "
                                "vocab.json is. Download the tokenizer files again.");
    BpeModel::Vocabulary vocabulary;
    std::unordered_set<int> ids;
    for (const auto &[token, value] : vocab.items()) {
        const std::string what = name + ": token \"" + quotedText(token) + "\"";
        if (!value.is_number_integer() || value.get<int64_t>() < 0 || value.get<int64_t>() > kMaxId)
            throw InputError(what + " has the id " + quotedText(value.dump()) +
                             "; ids are whole numbers from 0 to " + std::to_string(kMaxId) + ".");
        const int id = value.get<int>();
        if (!ids.insert(id).second)
            throw InputError(what + " has the id " + std::to_string(id) +
                             ", which another token already has. Ids must be unique.");
        vocabulary.emplace(token, id);
    }
    return vocabulary;
}

BpeModel::MergeList BpeModelFiles::readMerges(const std::string &text, const std::string &name,
                                              const BpeModel::Vocabulary &vocabulary)
{
    BpeModel::MergeList merges;
    std::unordered_set<std::string> seen;
    std::istringstream lines(text);
    std::string line;
    for (int number = 1; std::getline(lines, line); ++number) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || (number == 1 && line.rfind("#version", 0) == 0))
            continue;
        const std::string where = name + " line " + std::to_string(number);
        const size_t space = line.find(' ');
        if (space == 0 || space == std::string::npos || space + 1 == line.size() ||
            line.find(' ', space + 1) != std::string::npos)
            throw InputError(where + " is \"" + quotedText(line) +
                             "\", not two tokens separated by one space (\"Ġ t\").");
        std::string left = line.substr(0, space), right = line.substr(space + 1);
        for (const std::string &token : {left, right, left + right})
            if (vocabulary.count(token) == 0)
                throw InputError(where + " uses the token \"" + quotedText(token) +
                                 "\", which vocab.json does not have: the two files do not "
                                 "belong together.");
        if (!seen.insert(line).second)
            throw InputError(where + " repeats the merge \"" + quotedText(line) + "\".");
        merges.emplace_back(std::move(left), std::move(right));
    }
    return merges;
}

void BpeModelFiles::checkByteSymbols(const BpeModel::Vocabulary &vocabulary,
                                     const ByteLevelAlphabet &alphabet, const std::string &name)
{
    std::string bytes;
    for (const auto &[token, id] : vocabulary)
        if (!alphabet.toBytes(token, bytes) && token.rfind("<|", 0) != 0)
            throw InputError(name + ": token \"" + quotedText(token) +
                             "\" has a character that is not one of GPT-2's 256 byte symbols "
                             "(bytes_to_unicode, which RoBERTa shares); is this a GPT-2 or "
                             "RoBERTa vocab.json?");
    for (int b = 0; b < 256; ++b) {
        const std::string &symbol = alphabet.symbol(static_cast<unsigned char>(b));
        if (vocabulary.count(symbol) == 0)
            throw InputError(name + " lacks the token \"" + symbol + "\" for byte " +
                             std::to_string(b) +
                             "; a byte-level vocabulary holds all 256 bytes, so any text can be "
                             "encoded. Download the tokenizer files again.");
    }
}

} // namespace headlens
