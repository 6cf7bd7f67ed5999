// SplitPreTokenizer: the pattern's spans, inverted when asked, cut by the behaviour.
#include "text/pipeline/splitpretokenizer.h"

namespace headlens {

SplitPreTokenizer::SplitPreTokenizer(TextPattern pattern, SplitDelimiter::Behavior behavior,
                                     bool invert)
    : m_pattern(std::move(pattern)), m_behavior(behavior), m_invert(invert)
{}

void SplitPreTokenizer::split(const Piece &piece, std::vector<Piece> &pieces) const
{
    std::vector<TextSpan> spans = m_pattern.spans(piece.text);
    if (m_invert)
        spans = SplitDelimiter::inverted(std::move(spans));
    appendRanges(piece.text, piece.atStart, SplitDelimiter::pieces(spans, m_behavior), pieces);
}

} // namespace headlens
