// tokenSpans: each token's bytes matched at the place the previous one ended.
#include "stories/tokenspans.h"

namespace headlens {

namespace {

constexpr const char *kSpaces = " \t\n\r";

bool matchesAt(const std::string &text, size_t at, const std::string &bytes, size_t skip = 0)
{
    return at <= text.size() && text.compare(at, bytes.size() - skip, bytes, skip) == 0;
}

} // namespace

std::optional<std::vector<std::pair<size_t, size_t>>>
tokenSpans(const std::string &text, const std::vector<std::string> &tokenBytes)
{
    std::vector<std::pair<size_t, size_t>> spans;
    spans.reserve(tokenBytes.size());
    size_t pos = 0;
    for (const std::string &bytes : tokenBytes) {
        if (bytes.empty()) {
            spans.emplace_back(pos, pos);
            continue;
        }
        const size_t word = std::min(text.find_first_not_of(kSpaces, pos), text.size());
        const size_t lead = bytes.find_first_not_of(' ');
        size_t at = std::string::npos, skip = 0;
        if (matchesAt(text, pos, bytes))
            at = pos;
        else if (word > pos && matchesAt(text, word, bytes))
            at = word; // white space the tokenizer dropped
        else if (lead != std::string::npos && lead > 0 && matchesAt(text, pos, bytes, lead))
            at = pos, skip = lead; // a space the tokenizer put before the word
        if (at == std::string::npos) {
            spans.emplace_back(pos, pos); // a special token the tokenizer added
            continue;
        }
        pos = at + bytes.size() - skip;
        spans.emplace_back(at, pos);
    }
    // Every byte but white space must be some token's, or the tokens are not this text's.
    if (text.find_first_not_of(kSpaces, pos) != std::string::npos)
        return std::nullopt;
    return spans;
}

} // namespace headlens
