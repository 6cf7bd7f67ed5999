// TemplateProcessing: the chosen template's pieces concatenated into one encoding.
#include "text/pipeline/templateprocessing.h"

#include <cassert>
#include <cstddef>

namespace headlens {

TemplateProcessing::TemplateProcessing(Template single, Template pair)
    : m_single(std::move(single)), m_pair(std::move(pair))
{}

std::vector<TokenEncoding> TemplateProcessing::process(std::vector<TokenEncoding> encodings,
                                                       bool addSpecialTokens) const
{
    assert(encodings.size() == 1 || encodings.size() == 2);
    const Template &pieces = encodings.size() == 2 ? m_pair : m_single;
    std::vector<TokenEncoding> result;
    for (const Piece &piece : pieces) {
        if (piece.isSequence) {
            assert(static_cast<std::size_t>(piece.sequence) < encodings.size());
            TokenEncoding part = encodings[static_cast<std::size_t>(piece.sequence)];
            part.typeIds.assign(part.ids.size(), piece.typeId);
            result.push_back(std::move(part));
        } else if (addSpecialTokens) {
            result.push_back(
                {piece.tokenIds, std::vector<int>(piece.tokenIds.size(), piece.typeId)});
        }
    }
    return result;
}

} // namespace headlens
