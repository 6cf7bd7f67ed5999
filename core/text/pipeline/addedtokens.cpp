// AddedTokens: leftmost-longest search of the added tokens and the segments between them.
#include "text/pipeline/addedtokens.h"

#include "text/pipeline/normalizer.h"
#include "text/pipeline/unicodetext.h"

#include <algorithm>
#include <cassert>

namespace headlens {

namespace {

/// The code point that ends just before byte `end` (a character boundary, > 0).
char32_t characterBefore(const std::string &utf8, size_t end)
{
    size_t begin = end - 1;
    while (begin > 0 && (static_cast<unsigned char>(utf8[begin]) & 0xC0) == 0x80)
        --begin;
    return UnicodeText::next(utf8, begin);
}

} // namespace

AddedTokens::AddedTokens(std::vector<AddedToken> tokens, const Normalizer *normalizer)
    : m_tokens(std::move(tokens))
{
    for (size_t i = 0; i < m_tokens.size(); ++i) {
        const AddedToken &token = m_tokens[i];
        assert(!token.content.empty() && token.id >= 0);
        m_indexOfId.emplace(token.id, i);
        m_indexOfContent.emplace(token.content, i);
        if (!token.normalized)
            m_raw.add(token.content, static_cast<int>(i));
        else
            m_normalized.add(normalizer ? normalizer->normalize(token.content) : token.content,
                             static_cast<int>(i));
    }
}

std::pair<int, std::pair<size_t, size_t>>
AddedTokens::nextMatch(const TokenTrie &trie, const std::string &utf8, size_t from) const
{
    for (size_t at = from; at < utf8.size();) {
        const auto [index, length] = trie.longestAt(utf8, at);
        if (index < 0) {
            ++at;
            continue;
        }
        const size_t end = at + length;
        if (m_tokens[static_cast<size_t>(index)].singleWord) {
            // added_vocabulary.rs: no word character (Rust regex \w) right before or after.
            const bool wordBefore =
                at > 0 && UnicodeText::isWordCharacter(characterBefore(utf8, at));
            size_t after = end;
            const bool wordAfter =
                end < utf8.size() && UnicodeText::isWordCharacter(UnicodeText::next(utf8, after));
            if (wordBefore || wordAfter) {
                at = end; // Aho-Corasick's iterator goes on after the skipped match
                continue;
            }
        }
        return {index, {at, end}};
    }
    return {-1, {0, 0}};
}

std::vector<AddedTokens::Segment> AddedTokens::splitBy(const TokenTrie &trie,
                                                       const std::string &utf8) const
{
    std::vector<Segment> segments;
    if (trie.empty()) {
        if (!utf8.empty())
            segments.push_back({utf8, -1});
        return segments;
    }
    size_t done = 0; // everything before this is in `segments`
    for (size_t from = 0;;) {
        const auto [index, range] = nextMatch(trie, utf8, from);
        if (index < 0)
            break;
        const AddedToken &token = m_tokens[static_cast<size_t>(index)];
        size_t begin = range.first, end = range.second;
        from = end;
        while (token.lstrip && begin > done &&
               UnicodeText::isWhitespace(characterBefore(utf8, begin)))
            do
                --begin;
            while ((static_cast<unsigned char>(utf8[begin]) & 0xC0) == 0x80);
        for (size_t next = end; token.rstrip && next < utf8.size();) {
            if (!UnicodeText::isWhitespace(UnicodeText::next(utf8, next)))
                break;
            end = next;
        }
        if (begin > done)
            segments.push_back({utf8.substr(done, begin - done), -1});
        segments.push_back({utf8.substr(begin, end - begin), token.id});
        done = end;
        from = std::max(from, end);
    }
    if (done < utf8.size())
        segments.push_back({utf8.substr(done), -1});
    return segments;
}

const AddedToken *AddedTokens::find(int id) const
{
    const auto found = m_indexOfId.find(id);
    return found == m_indexOfId.end() ? nullptr : &m_tokens[found->second];
}

int AddedTokens::idOf(const std::string &content) const
{
    const auto found = m_indexOfContent.find(content);
    return found == m_indexOfContent.end() ? -1 : m_tokens[found->second].id;
}

int AddedTokens::idLimit() const
{
    int limit = 0;
    for (const AddedToken &token : m_tokens)
        limit = std::max(limit, token.id + 1);
    return limit;
}

} // namespace headlens
