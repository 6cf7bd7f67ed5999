// AddedTokens: leftmost-longest search of the added tokens and the segments between them.
#include "text/pipeline/addedtokens.h"

#include <algorithm>
#include <cassert>

namespace headlens {

AddedTokens::AddedTokens(std::vector<AddedToken> tokens) : m_tokens(std::move(tokens))
{
    assert(std::all_of(m_tokens.begin(), m_tokens.end(), [](const AddedToken &token) {
        return !token.content.empty() && token.id >= 0;
    }));
}

std::vector<AddedTokens::Segment> AddedTokens::split(const std::string &utf8) const
{
    std::vector<Segment> segments;
    size_t done = 0; // everything before this is in `segments`
    while (true) {
        // The leftmost match from `done`, the longest token where several start there. A
        // find() per token is enough for the few special tokens of real vocabularies.
        size_t at = std::string::npos;
        const AddedToken *match = nullptr;
        for (const AddedToken &token : m_tokens) {
            const size_t found = utf8.find(token.content, done);
            if (found < at || (found == at && found != std::string::npos &&
                               token.content.size() > match->content.size())) {
                at = found;
                match = &token;
            }
        }
        if (!match)
            break;
        if (at > done)
            segments.push_back({utf8.substr(done, at - done), -1});
        segments.push_back({match->content, match->id});
        done = at + match->content.size();
    }
    if (done < utf8.size())
        segments.push_back({utf8.substr(done), -1});
    return segments;
}

const AddedToken *AddedTokens::find(int id) const
{
    const auto found = std::find_if(m_tokens.begin(), m_tokens.end(),
                                    [id](const AddedToken &token) { return token.id == id; });
    return found == m_tokens.end() ? nullptr : &*found;
}

int AddedTokens::idOf(const std::string &content) const
{
    const auto found = std::find_if(m_tokens.begin(), m_tokens.end(), [&](const AddedToken &token) {
        return token.content == content;
    });
    return found == m_tokens.end() ? -1 : found->id;
}

int AddedTokens::idLimit() const
{
    int limit = 0;
    for (const AddedToken &token : m_tokens)
        limit = std::max(limit, token.id + 1);
    return limit;
}

} // namespace headlens
