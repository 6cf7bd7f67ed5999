// StoryGenerator: English-like stories, seeded, whose structure a small model can learn.
#pragma once

#include "stories/storytext.h"

#include <cstdint>

namespace headlens {

/// HeadLens's own default corpus: short stories of two or three characters whose names are
/// made up from syllables anew for each story (so no model can know them: the only way to
/// predict a name's second mention is to copy it from the first, what induction heads do),
/// mentioned again within a few words. The sentences carry the relations a head can be
/// scored against, written down as they are generated (StoryRelation):
///  - pronouns whose antecedent the generator knows ("Tokuye found a lamp. She smiled.");
///  - subject-verb agreement across a relative clause ("The dogs that Moquiste fed sleep.");
///  - quotes and brackets that open and close ("\"Look at the lamp,\" said Tokuye.",
///    "a lamp (an old one)").
/// Plain ASCII, a story per line. The same seed gives the same text, byte for byte, on every
/// machine (CounterRandom).
class StoryGenerator
{
public:
    explicit StoryGenerator(uint64_t seed) : m_seed(seed) {}

    /// Whole stories until the text holds at least `bytes` bytes.
    StoryText generate(size_t bytes) const;

private:
    uint64_t m_seed;
};

} // namespace headlens
