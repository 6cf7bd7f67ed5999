// RegexSplit: PCRE2 compilation and the Isolated split over every match.
#include "text/pipeline/regexsplit.h"

#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <pcre2.h>

namespace headlens {

/// The compiled pattern, owned once and shared read-only by copies.
struct RegexSplit::Compiled
{
    pcre2_code *code = nullptr;

    explicit Compiled(const std::string &pattern)
    {
        int error = 0;
        PCRE2_SIZE offset = 0;
        code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                             PCRE2_UTF | PCRE2_UCP, &error, &offset, nullptr);
        if (!code) {
            PCRE2_UCHAR message[256];
            pcre2_get_error_message(error, message, sizeof message);
            throw InputError("The pattern " + quotedText(pattern) +
                             " does not compile at character " + std::to_string(offset) + ": " +
                             reinterpret_cast<const char *>(message) + ".");
        }
    }
    ~Compiled() { pcre2_code_free(code); }
    Compiled(const Compiled &) = delete;
    Compiled &operator=(const Compiled &) = delete;
};

RegexSplit::RegexSplit(const std::string &pattern)
    : m_compiled(std::make_shared<const Compiled>(pattern))
{}

std::vector<std::string> RegexSplit::preTokenize(const std::string &utf8) const
{
    std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> data(
        pcre2_match_data_create_from_pattern(m_compiled->code, nullptr), pcre2_match_data_free);
    const auto subject = reinterpret_cast<PCRE2_SPTR>(utf8.data());
    std::vector<std::string> pieces;
    size_t done = 0;  // everything before this is in `pieces`
    size_t start = 0; // where the next match is searched from
    while (start < utf8.size()) {
        const int rc = pcre2_match(m_compiled->code, subject, utf8.size(), start,
                                   PCRE2_NO_UTF_CHECK, data.get(), nullptr);
        if (rc < 0) // no further match, or a resource limit: the rest is one piece
            break;
        const PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(data.get());
        const size_t begin = ovector[0], end = ovector[1];
        if (end == begin) { // an empty match cuts nothing; look again one character on
            start = begin + 1;
            while (start < utf8.size() && (static_cast<unsigned char>(utf8[start]) & 0xC0) == 0x80)
                ++start;
            continue;
        }
        if (begin > done)
            pieces.push_back(utf8.substr(done, begin - done));
        pieces.push_back(utf8.substr(begin, end - begin));
        done = start = end;
    }
    if (done < utf8.size())
        pieces.push_back(utf8.substr(done));
    return pieces;
}

} // namespace headlens
