// MetaspacePreTokenizer: replace, prepend by the scheme, and cut before each replacement.
#include "text/pipeline/metaspacepretokenizer.h"

#include "text/pipeline/splitdelimiter.h"

namespace headlens {

MetaspacePreTokenizer::MetaspacePreTokenizer(std::string replacement, PrependScheme scheme,
                                             bool split)
    : m_replacement(std::move(replacement)), m_scheme(scheme), m_split(split)
{}

void MetaspacePreTokenizer::split(const Piece &piece, std::vector<Piece> &pieces) const
{
    std::string text;
    text.reserve(piece.text.size() + m_replacement.size());
    for (char c : piece.text) {
        if (c == ' ')
            text += m_replacement;
        else
            text += c;
    }
    const bool startsWithReplacement = text.compare(0, m_replacement.size(), m_replacement) == 0;
    const bool prepend =
        m_scheme == PrependScheme::Always || (m_scheme == PrependScheme::First && piece.atStart);
    if (prepend && !startsWithReplacement)
        text.insert(0, m_replacement);
    if (!m_split) {
        pieces.push_back({std::move(text), piece.atStart});
        return;
    }
    std::vector<TextSpan> spans;
    size_t done = 0;
    for (size_t at = text.find(m_replacement); at != std::string::npos;
         at = text.find(m_replacement, done)) {
        if (at > done)
            spans.push_back({done, at, false});
        done = at + m_replacement.size();
        spans.push_back({at, done, true});
    }
    if (done < text.size())
        spans.push_back({done, text.size(), false});
    appendRanges(text, piece.atStart,
                 SplitDelimiter::pieces(spans, SplitDelimiter::Behavior::MergedWithNext), pieces);
}

} // namespace headlens
