// StoryGenerator: stories sentence by sentence, each relation recorded as its words are written.
#include "stories/storygenerator.h"

#include "util/counterrandom.h"

#include <array>

namespace headlens {

const char *toString(RelationKind kind)
{
    switch (kind) {
    case RelationKind::Antecedent:
        return "antecedent";
    case RelationKind::Subject:
        return "subject";
    case RelationKind::Bracket:
        return "bracket";
    }
    return "";
}

namespace {

constexpr std::array<const char *, 24> kSyllables = {
    "ka", "lo", "mi", "ra", "to", "bi", "se",  "nu", "fa", "de", "ri", "vo",
    "lu", "pe", "ga", "zo", "ti", "ne", "sha", "mo", "ku", "ba", "ye", "qui"};
constexpr std::array<const char *, 8> kPastVerbs = {"saw",     "met",   "helped", "called",
                                                    "thanked", "found", "fed",    "followed"};
constexpr std::array<const char *, 6> kNouns = {"dog", "cat", "bird", "hen", "goat", "frog"};
/// Third-person verbs as (singular, plural).
constexpr std::array<std::array<const char *, 2>, 5> kPresentVerbs = {{{"runs", "run"},
                                                                       {"sleeps", "sleep"},
                                                                       {"sings", "sing"},
                                                                       {"waits", "wait"},
                                                                       {"jumps", "jump"}}};
constexpr std::array<const char *, 6> kThings = {"lamp",   "kettle", "ribbon",
                                                 "basket", "map",    "coin"};
constexpr std::array<const char *, 4> kAdjectives = {"old", "red", "small", "new"};

/// One character of a story: the name (made up) and the pronoun that stands for it.
struct Character
{
    std::string name;
    const char *pronoun;     ///< "she" or "he"
    size_t mentionBegin = 0; ///< the latest mention of the name, for the next pronoun
    size_t mentionEnd = 0;
};

/// Writes one story's sentences into `out`, drawing from `random` in order.
class StoryWriter
{
public:
    StoryWriter(const CounterRandom &random, uint64_t &draw, StoryText &out)
        : m_random(random), m_draw(draw), m_out(out)
    {}

    void story()
    {
        m_cast.clear();
        m_namedAgain = 0;
        const int people = 2 + int(pick(2));
        for (int i = 0; i < people; ++i)
            m_cast.push_back({madeUpName(), pick(2) == 0 ? "she" : "he"});
        introduce();
        const int sentences = 4 + int(pick(4));
        for (int s = 0; s < sentences; ++s) {
            put(" ");
            sentence();
        }
        put("\n");
    }

private:
    uint64_t pick(uint64_t count) { return m_random.bits(m_draw++) % count; }
    template <size_t N> const char *any(const std::array<const char *, N> &words)
    {
        return words[pick(N)];
    }

    std::string madeUpName()
    {
        std::string name;
        // Three syllables of 24: one name in 13,824, so a name is guessed only by copying it.
        for (int i = 0; i < 3; ++i)
            name += kSyllables[pick(kSyllables.size())];
        name[0] = char(name[0] - 'a' + 'A');
        return name;
    }

    size_t put(const std::string &text)
    {
        const size_t begin = m_out.text.size();
        m_out.text += text;
        return begin;
    }

    void relate(RelationKind kind, size_t sourceBegin, size_t sourceEnd, size_t targetBegin,
                size_t targetEnd)
    {
        m_out.relations.push_back({kind, sourceBegin, sourceEnd, targetBegin, targetEnd});
    }

    /// The name of `c`, remembered as its latest mention.
    void name(Character &c)
    {
        c.mentionBegin = put(c.name);
        c.mentionEnd = m_out.text.size();
    }

    /// "She" / "he" for `c`, related to its latest mention.
    void pronoun(Character &c, bool capital)
    {
        std::string word = c.pronoun;
        if (capital)
            word[0] = char(word[0] - 'a' + 'A');
        const size_t begin = put(word);
        relate(RelationKind::Antecedent, begin, m_out.text.size(), c.mentionBegin, c.mentionEnd);
    }

    Character &someone() { return m_cast[pick(m_cast.size())]; }
    Character &someoneElse(const Character &not_)
    {
        Character *c = &someone();
        while (c == &not_)
            c = &someone();
        return *c;
    }

    /// "Tokuye met Moquiste." or "Tokuye met Moquiste and Lura.": every character is named
    /// before any pronoun stands for it, and each one's name recurs in the sentences after.
    void introduce()
    {
        name(m_cast[0]);
        put(" met ");
        name(m_cast[1]);
        for (size_t i = 2; i < m_cast.size(); ++i) {
            put(" and ");
            name(m_cast[i]);
        }
        put(".");
    }

    void sentence()
    {
        // Half the sentences name two characters: the more names recur within a context, the
        // more copying pays, and the sooner induction heads form. The first ones after the
        // introduction name each character again, in turn.
        const bool again = m_namedAgain < m_cast.size();
        const uint64_t form = again ? 0 : pick(10);
        Character &a = again ? m_cast[m_namedAgain++] : someone();
        Character &b = someoneElse(a);
        switch (form) {
        case 0: // Tokuye saw Moquiste.
        case 1:
        case 2:
        case 3:
        case 4:
            name(a);
            put(std::string(" ") + any(kPastVerbs) + " ");
            name(b);
            put(".");
            break;
        case 5: // She helped Moquiste.
            pronoun(a, true);
            put(std::string(" ") + any(kPastVerbs) + " ");
            name(b);
            put(".");
            break;
        case 6: { // The dogs that Tokuye fed sleep.
            const bool plural = pick(2) == 0;
            put("The ");
            const size_t noun = put(std::string(any(kNouns)) + (plural ? "s" : ""));
            const size_t nounEnd = m_out.text.size();
            put(" that ");
            name(a);
            put(std::string(" ") + any(kPastVerbs) + " ");
            const auto &verb = kPresentVerbs[pick(kPresentVerbs.size())];
            const size_t v = put(verb[plural ? 1 : 0]);
            relate(RelationKind::Subject, v, m_out.text.size(), noun, nounEnd);
            put(".");
            break;
        }
        case 7: { // "Look at the lamp," said Tokuye.
            const size_t open = put("\"");
            put(std::string("Look at the ") + any(kThings) + ",");
            const size_t close = put("\"");
            relate(RelationKind::Bracket, close, close + 1, open, open + 1);
            put(" said ");
            name(a);
            put(".");
            break;
        }
        case 8: { // Tokuye found a lamp (an old one).
            name(a);
            put(std::string(" found a ") + any(kThings) + " ");
            const size_t open = put("(");
            const char *adjective = any(kAdjectives);
            put(std::string(adjective[0] == 'o' ? "an " : "a ") + adjective + " one");
            const size_t close = put(")");
            relate(RelationKind::Bracket, close, close + 1, open, open + 1);
            put(".");
            break;
        }
        default: // Tokuye and Moquiste ate.
            name(a);
            put(" and ");
            name(b);
            put(" ate.");
            break;
        }
    }

    const CounterRandom &m_random;
    uint64_t &m_draw;
    StoryText &m_out;
    std::vector<Character> m_cast;
    size_t m_namedAgain = 0; ///< characters named again after the introduction
};

} // namespace

StoryText StoryGenerator::generate(size_t bytes) const
{
    const CounterRandom random(m_seed, CounterRandom::hash("stories"));
    uint64_t draw = 0;
    StoryText out;
    out.text.reserve(bytes + 512);
    StoryWriter writer(random, draw, out);
    while (out.text.size() < bytes)
        writer.story();
    return out;
}

} // namespace headlens
