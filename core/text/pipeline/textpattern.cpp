// TextPattern: PCRE2 compilation, the empty-match check, and the spans of both kinds.
#include "text/pipeline/textpattern.h"

#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <pcre2.h>

namespace headlens {

/// The compiled pattern, owned once and shared read-only by copies.
struct TextPattern::Compiled
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
            throw InputError("The pattern \"" + quotedText(pattern) +
                             "\" does not compile at character " + std::to_string(offset) + ": " +
                             reinterpret_cast<const char *>(message) + ".");
        }
        uint32_t minimum = 0;
        pcre2_pattern_info(code, PCRE2_INFO_MINLENGTH, &minimum);
        if (minimum == 0) {
            pcre2_code_free(code);
            throw InputError("The pattern \"" + quotedText(pattern) +
                             "\" can match empty text, which HeadLens does not split or "
                             "replace on (Hugging Face's Oniguruma cuts at every empty match).");
        }
    }
    ~Compiled() { pcre2_code_free(code); }
    Compiled(const Compiled &) = delete;
    Compiled &operator=(const Compiled &) = delete;
};

TextPattern TextPattern::regex(const std::string &pattern)
{
    TextPattern compiled;
    compiled.m_compiled = std::make_shared<const Compiled>(pattern);
    compiled.m_source = pattern;
    return compiled;
}

TextPattern TextPattern::literal(const std::string &text)
{
    if (text.empty())
        throw InputError("The pattern is an empty string, which matches nothing to split on.");
    TextPattern pattern;
    pattern.m_source = text;
    return pattern;
}

std::vector<TextSpan> TextPattern::spans(const std::string &utf8) const
{
    std::vector<TextSpan> spans;
    size_t done = 0; // everything before this is in `spans`
    const auto addMatch = [&](size_t begin, size_t end) {
        if (begin > done)
            spans.push_back({done, begin, false});
        spans.push_back({begin, end, true});
        done = end;
    };
    if (!m_compiled) {
        for (size_t at = utf8.find(m_source); at != std::string::npos;
             at = utf8.find(m_source, done))
            addMatch(at, at + m_source.size());
    } else {
        std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> data(
            pcre2_match_data_create_from_pattern(m_compiled->code, nullptr), pcre2_match_data_free);
        const auto subject = reinterpret_cast<PCRE2_SPTR>(utf8.data());
        while (done < utf8.size()) {
            const int rc = pcre2_match(m_compiled->code, subject, utf8.size(), done,
                                       PCRE2_NO_UTF_CHECK, data.get(), nullptr);
            if (rc < 0) // no further match, or a resource limit: the rest is one stretch
                break;
            const PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(data.get());
            if (ovector[1] <= ovector[0] || ovector[0] < done) // \K tricks: no further match
                break;
            addMatch(ovector[0], ovector[1]);
        }
    }
    if (done < utf8.size())
        spans.push_back({done, utf8.size(), false});
    return spans;
}

} // namespace headlens
