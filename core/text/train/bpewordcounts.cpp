// BpeWordCounts: the ByteLevel pre-tokenizer's words, counted per sequence or per line.
#include "text/train/bpewordcounts.h"

#include "text/tokenizer.h"

namespace headlens {

BpeWordCounts::BpeWordCounts() : m_preTokenizer(/*addPrefixSpace=*/false, /*useRegex=*/true) {}

void BpeWordCounts::addSequence(const std::string &utf8)
{
    for (std::string &word : m_preTokenizer.preTokenize(Tokenizer::toValidUtf8(utf8)))
        ++m_counts[std::move(word)];
}

void BpeWordCounts::addLines(const std::string &utf8)
{
    size_t begin = 0;
    while (begin < utf8.size()) {
        const size_t newline = utf8.find('\n', begin);
        const size_t end = newline == std::string::npos ? utf8.size() : newline + 1;
        addSequence(utf8.substr(begin, end - begin));
        begin = end;
    }
}

} // namespace headlens
