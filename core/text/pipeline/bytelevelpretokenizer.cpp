// ByteLevelPreTokenizer: the optional prefix space, GPT-2's split and the byte spelling.
#include "text/pipeline/bytelevelpretokenizer.h"

namespace headlens {

ByteLevelPreTokenizer::ByteLevelPreTokenizer(bool addPrefixSpace, bool useRegex)
    : m_addPrefixSpace(addPrefixSpace)
{
    if (useRegex)
        m_split.emplace(kGpt2Pattern);
}

std::vector<std::string> ByteLevelPreTokenizer::split(const std::string &utf8) const
{
    // byte_level.rs adds the space only when the text does not already start with one.
    const bool prefix = m_addPrefixSpace && !utf8.empty() && utf8.front() != ' ';
    const std::string text = prefix ? " " + utf8 : utf8;
    if (m_split)
        return m_split->preTokenize(text);
    return text.empty() ? std::vector<std::string>{} : std::vector<std::string>{text};
}

std::vector<std::string> ByteLevelPreTokenizer::preTokenize(const std::string &utf8) const
{
    std::vector<std::string> pieces = split(utf8);
    for (std::string &piece : pieces)
        piece = m_alphabet.toSymbols(piece);
    return pieces;
}

} // namespace headlens
