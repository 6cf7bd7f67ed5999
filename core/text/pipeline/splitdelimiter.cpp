// SplitDelimiter: the five behaviours of NormalizedString::split over matched spans.
#include "text/pipeline/splitdelimiter.h"

#include "text/pipeline/unicodetext.h"

#include <algorithm>

namespace headlens {

namespace {

using Range = std::pair<size_t, size_t>;

/// MergedWithPrevious over `spans` in the order given (MergedWithNext runs it backwards).
std::vector<Range> mergeWithNeighbour(const std::vector<TextSpan> &spans, bool backwards)
{
    std::vector<Range> ranges;
    bool previousMatch = false;
    const auto visit = [&](const TextSpan &span) {
        if (span.isMatch && !previousMatch && !ranges.empty()) {
            if (backwards)
                ranges.back().first = span.begin;
            else
                ranges.back().second = span.end;
        } else {
            ranges.emplace_back(span.begin, span.end);
        }
        previousMatch = span.isMatch;
    };
    if (backwards) {
        std::for_each(spans.rbegin(), spans.rend(), visit);
        std::reverse(ranges.begin(), ranges.end());
    } else {
        std::for_each(spans.begin(), spans.end(), visit);
    }
    return ranges;
}

} // namespace

std::vector<Range> SplitDelimiter::pieces(const std::vector<TextSpan> &spans, Behavior behavior)
{
    std::vector<Range> ranges;
    switch (behavior) {
    case Behavior::Removed:
    case Behavior::Isolated:
        for (const TextSpan &span : spans)
            if (behavior == Behavior::Isolated || !span.isMatch)
                ranges.emplace_back(span.begin, span.end);
        break;
    case Behavior::Contiguous: {
        bool previousMatch = false;
        for (const TextSpan &span : spans) {
            if (span.isMatch == previousMatch && !ranges.empty())
                ranges.back().second = span.end;
            else
                ranges.emplace_back(span.begin, span.end);
            previousMatch = span.isMatch;
        }
        break;
    }
    case Behavior::MergedWithPrevious:
        ranges = mergeWithNeighbour(spans, false);
        break;
    case Behavior::MergedWithNext:
        ranges = mergeWithNeighbour(spans, true);
        break;
    }
    ranges.erase(std::remove_if(ranges.begin(), ranges.end(),
                                [](const Range &range) { return range.first >= range.second; }),
                 ranges.end());
    return ranges;
}

std::vector<TextSpan>
SplitDelimiter::characterSpans(const std::string &utf8,
                               const std::function<bool(char32_t)> &isDelimiter)
{
    std::vector<TextSpan> spans;
    size_t done = 0;
    for (size_t i = 0; i < utf8.size();) {
        const size_t begin = i;
        if (!isDelimiter(UnicodeText::next(utf8, i)))
            continue;
        if (begin > done)
            spans.push_back({done, begin, false});
        spans.push_back({begin, i, true});
        done = i;
    }
    if (done < utf8.size())
        spans.push_back({done, utf8.size(), false});
    return spans;
}

std::vector<TextSpan> SplitDelimiter::inverted(std::vector<TextSpan> spans)
{
    for (TextSpan &span : spans)
        span.isMatch = !span.isMatch;
    return spans;
}

} // namespace headlens
