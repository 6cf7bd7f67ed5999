// TokenizerPipeline: runs the components in order and answers questions about single tokens.
#include "text/pipeline/tokenizerpipeline.h"

#include "text/tokenizer.h"

#include <algorithm>
#include <cassert>

namespace headlens {

TokenizerPipeline::TokenizerPipeline(Parts parts) : m_parts(std::move(parts))
{
    assert(m_parts.model && "a tokenizer needs a model");
    // The normalized added tokens are looked for in their normalized form.
    m_parts.addedTokens = AddedTokens(m_parts.addedTokens.tokens(), m_parts.normalizer.get());
}

std::vector<int> TokenizerPipeline::idsOf(const std::string &utf8) const
{
    assert(m_parts.model && "encode() on a default-constructed pipeline");
    std::vector<int> ids;
    size_t offset = 0; // of the segment in the text
    for (const AddedTokens::Segment &segment :
         m_parts.addedTokens.split(Tokenizer::toValidUtf8(utf8))) {
        if (segment.id >= 0)
            ids.push_back(segment.id);
        else
            appendText(segment.text, offset == 0, ids);
        offset += segment.text.size();
    }
    return ids;
}

void TokenizerPipeline::appendText(const std::string &text, bool atStart,
                                   std::vector<int> &ids) const
{
    const std::string normalized = m_parts.normalizer ? m_parts.normalizer->normalize(text) : text;
    size_t offset = 0;
    for (const AddedTokens::Segment &segment : m_parts.addedTokens.splitNormalized(normalized)) {
        if (segment.id >= 0)
            ids.push_back(segment.id);
        else
            appendPieces(segment.text, atStart && offset == 0, ids);
        offset += segment.text.size();
    }
}

void TokenizerPipeline::appendPieces(const std::string &text, bool atStart,
                                     std::vector<int> &ids) const
{
    if (!m_parts.preTokenizer) {
        m_parts.model->tokenize(text, ids);
        return;
    }
    std::vector<PreTokenizer::Piece> pieces;
    m_parts.preTokenizer->split({text, atStart}, pieces);
    for (const PreTokenizer::Piece &piece : pieces)
        m_parts.model->tokenize(piece.text, ids);
}

TokenEncoding TokenizerPipeline::postProcess(std::vector<TokenEncoding> encodings,
                                             bool addSpecialTokens) const
{
    if (m_parts.postProcessor)
        encodings = m_parts.postProcessor->process(std::move(encodings), addSpecialTokens);
    TokenEncoding merged;
    for (const TokenEncoding &encoding : encodings) {
        merged.ids.insert(merged.ids.end(), encoding.ids.begin(), encoding.ids.end());
        merged.typeIds.insert(merged.typeIds.end(), encoding.typeIds.begin(),
                              encoding.typeIds.end());
    }
    return merged;
}

std::vector<int> TokenizerPipeline::encode(const std::string &utf8, bool addSpecialTokens) const
{
    std::vector<int> ids = idsOf(utf8);
    if (!m_parts.postProcessor)
        return ids;
    const size_t n = ids.size();
    return postProcess({{std::move(ids), std::vector<int>(n, 0)}}, addSpecialTokens).ids;
}

TokenEncoding TokenizerPipeline::encodePair(const std::string &first, const std::string &second,
                                            bool addSpecialTokens) const
{
    std::vector<int> a = idsOf(first), b = idsOf(second);
    const size_t n = a.size(), m = b.size();
    return postProcess(
        {{std::move(a), std::vector<int>(n, 0)}, {std::move(b), std::vector<int>(m, 1)}},
        addSpecialTokens);
}

TokenizerPipeline
TokenizerPipeline::withPostProcessor(std::shared_ptr<const PostProcessor> postProcessor) const
{
    Parts parts = m_parts;
    parts.postProcessor = std::move(postProcessor);
    return TokenizerPipeline(std::move(parts));
}

std::string TokenizerPipeline::tokenBytes(int id) const
{
    if (const AddedToken *added = m_parts.addedTokens.find(id))
        return added->content;
    const std::string *token = m_parts.model ? m_parts.model->tokenOf(id) : nullptr;
    if (!token)
        return {};
    return m_parts.decoder ? m_parts.decoder->decodeToken(*token) : *token;
}

std::string TokenizerPipeline::decode(const std::vector<int> &ids) const
{
    std::vector<std::string> tokens;
    for (int id : ids) {
        const AddedToken *added = m_parts.addedTokens.find(id);
        const std::string *token = added           ? &added->content
                                   : m_parts.model ? m_parts.model->tokenOf(id)
                                                   : nullptr;
        if (token)
            tokens.push_back(*token);
    }
    if (m_parts.decoder)
        tokens = m_parts.decoder->decodeChain(std::move(tokens));
    std::string text;
    for (size_t i = 0; i < tokens.size(); ++i)
        text += (i > 0 && !m_parts.decoder ? " " : "") + tokens[i];
    return text;
}

std::string TokenizerPipeline::displayLabel(int id) const
{
    if (!contains(id))
        return "[id " + std::to_string(id) + "]";
    if (const AddedToken *added = m_parts.addedTokens.find(id))
        return added->content;
    return Tokenizer::displayLabel(tokenBytes(id));
}

bool TokenizerPipeline::contains(int id) const
{
    return m_parts.addedTokens.find(id) || (m_parts.model && m_parts.model->tokenOf(id));
}

int TokenizerPipeline::idLimit() const
{
    const int modelLimit = m_parts.model ? m_parts.model->idLimit() : 0;
    return std::max(modelLimit, m_parts.addedTokens.idLimit());
}

int TokenizerPipeline::idOf(const std::string &token) const
{
    const int added = m_parts.addedTokens.idOf(token);
    if (added >= 0 || !m_parts.model)
        return added;
    return m_parts.model->idOf(token);
}

} // namespace headlens
