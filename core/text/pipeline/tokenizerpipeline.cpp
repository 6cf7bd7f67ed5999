// TokenizerPipeline: runs the components in order and answers questions about single tokens.
#include "text/pipeline/tokenizerpipeline.h"

#include "text/tokenizer.h"

#include <algorithm>
#include <cassert>

namespace headlens {

TokenizerPipeline::TokenizerPipeline(Parts parts) : m_parts(std::move(parts))
{
    assert(m_parts.model && "a tokenizer needs a model");
}

std::vector<int> TokenizerPipeline::encode(const std::string &utf8) const
{
    assert(m_parts.model && "encode() on a default-constructed pipeline");
    std::vector<int> ids;
    for (const AddedTokens::Segment &segment :
         m_parts.addedTokens.split(Tokenizer::toValidUtf8(utf8))) {
        if (segment.id >= 0)
            ids.push_back(segment.id);
        else
            appendText(segment.text, ids);
    }
    return m_parts.postProcessor ? m_parts.postProcessor->process(std::move(ids)) : ids;
}

void TokenizerPipeline::appendText(const std::string &text, std::vector<int> &ids) const
{
    const std::string normalized = m_parts.normalizer ? m_parts.normalizer->normalize(text) : text;
    if (!m_parts.preTokenizer) {
        m_parts.model->tokenize(normalized, ids);
        return;
    }
    for (const std::string &piece : m_parts.preTokenizer->preTokenize(normalized))
        m_parts.model->tokenize(piece, ids);
}

std::string TokenizerPipeline::tokenBytes(int id) const
{
    if (const AddedToken *added = m_parts.addedTokens.find(id))
        return added->content;
    const std::string *token = m_parts.model ? m_parts.model->tokenOf(id) : nullptr;
    if (!token)
        return {};
    if (!m_parts.decoder)
        return *token;
    return m_parts.decoder->decodeChain({*token}).front();
}

std::string TokenizerPipeline::decode(const std::vector<int> &ids) const
{
    std::string bytes;
    for (int id : ids)
        bytes += tokenBytes(id);
    return bytes;
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
