// tst_storygenerator: the default corpus: reproducible, as long as asked, names that recur,
// and relations that say what they claim; relationScores against hand-computed values.
#include "approx.h"

#include "stories/relationscores.h"
#include "stories/storygenerator.h"
#include "testmain.h"

#include <QTest>

#include <map>
#include <regex>
#include <set>

using namespace headlens;

namespace {

std::string spanOf(const std::string &text, size_t begin, size_t end)
{
    return text.substr(begin, end - begin);
}

} // namespace

class TestStoryGenerator : public QObject
{
    Q_OBJECT

private slots:
    void theSeedDecidesTheText();
    void relationsSpellWhatTheyClaim();
    void namesRecurWithinAStory();
    void scoresAgainstHandComputedHeads();
};

void TestStoryGenerator::theSeedDecidesTheText()
{
    const StoryText a = StoryGenerator(7).generate(20000);
    QVERIFY(a.text.size() >= 20000 && a.text.size() < 21000); // whole stories, then stop
    QCOMPARE(StoryGenerator(7).generate(20000).text, a.text);
    QVERIFY(StoryGenerator(8).generate(20000).text != a.text);
    for (unsigned char c : a.text)
        QVERIFY2(c == '\n' || (c >= 0x20 && c < 0x7f), "plain ASCII, a story per line");
    // A longer text starts with the shorter one: the stories do not depend on the length.
    QCOMPARE(StoryGenerator(7).generate(40000).text.substr(0, a.text.size()), a.text);
}

void TestStoryGenerator::relationsSpellWhatTheyClaim()
{
    const StoryText t = StoryGenerator(3).generate(50000);
    std::map<RelationKind, int> counts;
    size_t previousSource = 0;
    for (const StoryRelation &r : t.relations) {
        QVERIFY(r.sourceBegin < r.sourceEnd && r.sourceEnd <= t.text.size());
        QVERIFY(r.targetBegin < r.targetEnd && r.targetEnd <= r.sourceBegin); // target first
        QVERIFY(r.sourceBegin >= previousSource); // in the order of the text
        previousSource = r.sourceBegin;
        const std::string source = spanOf(t.text, r.sourceBegin, r.sourceEnd);
        const std::string target = spanOf(t.text, r.targetBegin, r.targetEnd);
        // The two ends of a relation sit in one story (one line).
        QVERIFY(t.text.find('\n', r.targetBegin) >= r.sourceEnd);
        counts[r.kind] += 1;
        switch (r.kind) {
        case RelationKind::Antecedent:
            QVERIFY2(source == "She" || source == "He", source.c_str());
            QVERIFY2(std::regex_match(target, std::regex("[A-Z][a-z]+")), target.c_str());
            // The latest mention: the name does not occur between it and the pronoun.
            QVERIFY(t.text.find(target, r.targetEnd) >= r.sourceBegin);
            break;
        case RelationKind::Subject: {
            const bool pluralNoun = target.back() == 's';
            const bool singularVerb = source.back() == 's';
            QVERIFY2(pluralNoun != singularVerb, (target + " ... " + source).c_str());
            QVERIFY(spanOf(t.text, r.targetEnd, r.targetEnd + 6) == " that ");
            break;
        }
        case RelationKind::Bracket:
            QVERIFY2((target == "(" && source == ")") || (target == "\"" && source == "\""),
                     (target + source).c_str());
            break;
        }
    }
    // Every kind is well represented: 50 kB hold over a hundred of each.
    QVERIFY(counts[RelationKind::Antecedent] > 100);
    QVERIFY(counts[RelationKind::Subject] > 100);
    QVERIFY(counts[RelationKind::Bracket] > 100);
}

void TestStoryGenerator::namesRecurWithinAStory()
{
    const StoryText t = StoryGenerator(5).generate(20000);
    const std::regex name("[A-Z][a-z]+");
    size_t start = 0;
    int stories = 0;
    std::set<std::string> everyName;
    while (start < t.text.size()) {
        const size_t end = t.text.find('\n', start);
        const std::string story = t.text.substr(start, end - start);
        std::map<std::string, int> mentions;
        for (auto it = std::sregex_iterator(story.begin(), story.end(), name);
             it != std::sregex_iterator(); ++it)
            if (it->str() != "The" && it->str() != "Look" && it->str() != "She" &&
                it->str() != "He")
                mentions[it->str()] += 1;
        int most = 0;
        for (const auto &[who, count] : mentions) {
            QVERIFY2(count >= 2, story.c_str()); // introduced, then named again
            most = std::max(most, count);
            everyName.insert(who);
        }
        QVERIFY2(most >= 3, story.c_str()); // someone is named at least three times
        ++stories;
        start = end + 1;
    }
    // Names are made up anew: almost every story has its own.
    QVERIFY2(int(everyName.size()) > 2 * stories * 9 / 10,
             std::to_string(everyName.size()).c_str());
}

/// A window of 6 one-byte tokens "ab(cd)": the bracket's source is ")" at 5, its target "("
/// at 2. A head with weight 0.5 on token 2 from query 5 scores 0.5; chance is 1/6 (one key of
/// the six query 5 sees). A target of two tokens sums their weights.
void TestStoryGenerator::scoresAgainstHandComputedHeads()
{
    std::vector<std::pair<size_t, size_t>> spans;
    for (size_t i = 0; i < 6; ++i)
        spans.push_back({100 + i, 101 + i}); // the window starts at byte 100 of the text
    RowMatrix w = RowMatrix::Zero(6, 6);
    for (int i = 0; i < 6; ++i)
        w(i, i) = 1.0f;
    w(5, 5) = 0.25f;
    w(5, 2) = 0.5f;
    w(5, 0) = 0.25f;
    const std::vector<StoryRelation> relations = {
        {RelationKind::Bracket, 105, 106, 102, 103},
        {RelationKind::Antecedent, 104, 106, 100, 102}, // two-byte source and target
        {RelationKind::Subject, 105, 106, 90, 92},      // target before the window: skipped
    };
    const auto scores = relationScores(w, spans, relations);
    const RelationScore &bracket = scores[size_t(RelationKind::Bracket)];
    QCOMPARE(bracket.count, 1);
    HL_COMPARE_NEAR(bracket.score, 0.5, 0.0, 1e-7);
    HL_COMPARE_NEAR(bracket.chance, 1.0 / 6.0, 0.0, 1e-12);
    const RelationScore &antecedent = scores[size_t(RelationKind::Antecedent)];
    QCOMPARE(antecedent.count, 1);
    HL_COMPARE_NEAR(antecedent.score, 0.25, 0.0, 1e-7); // query 5 (the last byte) on 0 and 1
    HL_COMPARE_NEAR(antecedent.chance, 2.0 / 6.0, 0.0, 1e-12);
    QCOMPARE(scores[size_t(RelationKind::Subject)].count, 0);

    // Multi-byte tokens: "ab" "(c" "d)" -> the bracket's source ")" is in token 2, its target
    // "(" in token 1.
    const std::vector<std::pair<size_t, size_t>> pairs = {{100, 102}, {102, 104}, {104, 106}};
    RowMatrix three = RowMatrix::Zero(3, 3);
    three(2, 1) = 0.75f;
    three(2, 2) = 0.25f;
    const auto paired = relationScores(three, pairs, relations);
    HL_COMPARE_NEAR(paired[size_t(RelationKind::Bracket)].score, 0.75, 0.0, 1e-7);
    HL_COMPARE_NEAR(paired[size_t(RelationKind::Bracket)].chance, 1.0 / 3.0, 0.0, 1e-12);
}

HEADLENS_TEST_APPLESS_MAIN(TestStoryGenerator)
#include "tst_storygenerator.moc"
