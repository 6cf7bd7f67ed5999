// TokenVocabulary: the reverse table built once from the map.
#include "text/pipeline/tokenvocabulary.h"

#include <cassert>

namespace headlens {

TokenVocabulary::TokenVocabulary(Map ids) : m_ids(std::move(ids))
{
    for (const auto &[token, id] : m_ids) {
        assert(id >= 0);
        if (static_cast<size_t>(id) >= m_tokens.size()) {
            m_tokens.resize(static_cast<size_t>(id) + 1);
            m_present.resize(static_cast<size_t>(id) + 1, false);
        }
        assert(!m_present[size_t(id)] && "ids are unique");
        m_tokens[size_t(id)] = token;
        m_present[size_t(id)] = true;
    }
}

int TokenVocabulary::idOf(const std::string &token) const
{
    const auto found = m_ids.find(token);
    return found == m_ids.end() ? -1 : found->second;
}

const std::string *TokenVocabulary::tokenOf(int id) const
{
    if (id < 0 || static_cast<size_t>(id) >= m_present.size() || !m_present[size_t(id)])
        return nullptr;
    return &m_tokens[size_t(id)];
}

} // namespace headlens
