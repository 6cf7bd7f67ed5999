// WordPieceDecoder: prefix removal or a leading space, then the cleanup replacements.
#include "text/pipeline/wordpiecedecoder.h"

#include <utility>

namespace headlens {

std::string WordPieceDecoder::cleanup(std::string text)
{
    static const std::pair<const char *, const char *> kReplacements[] = {
        {" .", "."},   {" ?", "?"},     {" !", "!"},    {" ,", ","},
        {" ' ", "'"},  {" n't", "n't"}, {" 'm", "'m"},  {" do not", " don't"},
        {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}};
    for (const auto &[from, to] : kReplacements) {
        const std::string pattern = from, replacement = to;
        std::string result;
        size_t done = 0;
        for (size_t at = text.find(pattern); at != std::string::npos;
             at = text.find(pattern, done)) {
            result.append(text, done, at - done);
            result += replacement;
            done = at + pattern.size();
        }
        result.append(text, done, std::string::npos);
        text = std::move(result);
    }
    return text;
}

std::string WordPieceDecoder::inside(const std::string &token) const
{
    if (token.compare(0, m_prefix.size(), m_prefix) == 0)
        return token.substr(m_prefix.size());
    return " " + token;
}

std::vector<std::string> WordPieceDecoder::decodeChain(std::vector<std::string> tokens) const
{
    for (size_t i = 0; i < tokens.size(); ++i) {
        if (i > 0)
            tokens[i] = inside(tokens[i]);
        if (m_cleanup)
            tokens[i] = cleanup(std::move(tokens[i]));
    }
    return tokens;
}

std::string WordPieceDecoder::decodeToken(const std::string &token) const
{
    return token; // decode_chain leaves a first token as it is
}

} // namespace headlens
