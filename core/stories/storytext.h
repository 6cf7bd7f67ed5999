// StoryText: generated text with the relations its generator knows, in byte offsets.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace headlens {

/// What a relation links: a word to the word it depends on.
enum class RelationKind
{
    Antecedent, ///< a pronoun ("she") -> the name it stands for, at its latest mention
    Subject,    ///< a verb after a relative clause ("runs") -> its subject noun ("dog")
    Bracket,    ///< a closing quote or bracket -> its opener
};

/// "antecedent", "subject", "bracket".
const char *toString(RelationKind kind);

/// A relation between two spans of the text, [begin, end) in bytes; the target comes first.
struct StoryRelation
{
    RelationKind kind;
    size_t sourceBegin = 0;
    size_t sourceEnd = 0;
    size_t targetBegin = 0;
    size_t targetEnd = 0;
};

/// The text and its relations, in the order their sources appear.
struct StoryText
{
    std::string text;
    std::vector<StoryRelation> relations;
};

} // namespace headlens
