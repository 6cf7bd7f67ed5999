// SplitDelimiter: what a split does with the matches it cuts at (removed, isolated, merged).
#pragma once

#include "text/pipeline/textpattern.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace headlens {

/// huggingface/tokenizers SplitDelimiterBehavior and NormalizedString::split
/// (tokenizer/normalizer.rs), on "the-final--countdown" split at "-":
///   Removed            "the" "final" "countdown"
///   Isolated           "the" "-" "final" "-" "-" "countdown"
///   MergedWithPrevious "the-" "final-" "-" "countdown"
///   MergedWithNext     "the" "-final" "-" "-countdown"
///   Contiguous         "the" "-" "final" "--" "countdown"
class SplitDelimiter
{
public:
    enum class Behavior
    {
        Removed,
        Isolated,
        MergedWithPrevious,
        MergedWithNext,
        Contiguous
    };

    /// The byte ranges [begin, end) of the pieces `spans` (which cover a text in order) give
    /// with `behavior`; none is empty.
    static std::vector<std::pair<size_t, size_t>> pieces(const std::vector<TextSpan> &spans,
                                                         Behavior behavior);

    /// pattern.rs for a character predicate: every character for which `isDelimiter` holds is a
    /// match of its own, the runs between them are not.
    static std::vector<TextSpan> characterSpans(const std::string &utf8,
                                                const std::function<bool(char32_t)> &isDelimiter);

    /// `spans` with every isMatch flipped (pattern.rs Invert).
    static std::vector<TextSpan> inverted(std::vector<TextSpan> spans);
};

} // namespace headlens
