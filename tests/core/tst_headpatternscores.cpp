// tst_headpatternscores: the pieces under the Heads view's "Score heads against": tokens found
// in the text they spell (tokenSpans), story windows that fit a context with their relations
// (storyWindow, windowAt), and every head scored with chance beside it (scoreHeads).
#include "stories/storygenerator.h"
#include "stories/storywindow.h"
#include "stories/tokenspans.h"
#include "testmain.h"
#include "train/headpatternscores.h"

#include <QTest>

using namespace headlens;
using Spans = std::vector<std::pair<size_t, size_t>>;
Q_DECLARE_METATYPE(Spans)
Q_DECLARE_METATYPE(std::vector<std::string>)

class TestHeadPatternScores : public QObject
{
    Q_OBJECT

private slots:
    void tokenSpansFollowTheText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<std::vector<std::string>>("tokens");
        QTest::addColumn<bool>("found");
        QTest::addColumn<Spans>("spans");
        QTest::newRow("bytes") << "ab c" << std::vector<std::string>{"a", "b", " ", "c"} << true
                               << Spans{{0, 1}, {1, 2}, {2, 3}, {3, 4}};
        QTest::newRow("byte-level BPE")
            << "She met Kalo." << std::vector<std::string>{"She", " met", " Kal", "o", "."} << true
            << Spans{{0, 3}, {3, 7}, {7, 11}, {11, 12}, {12, 13}};
        QTest::newRow("words drop spaces")
            << "She  met him" << std::vector<std::string>{"She", "met", "him"} << true
            << Spans{{0, 3}, {5, 8}, {9, 12}};
        QTest::newRow("BOS first") << "Hi there" << std::vector<std::string>{"<s>", "Hi", " there"}
                                   << true << Spans{{0, 0}, {0, 2}, {2, 8}};
        QTest::newRow("Metaspace prefix") << "Hi there" << std::vector<std::string>{" Hi", " there"}
                                          << true << Spans{{0, 2}, {2, 8}};
        QTest::newRow("lower-cased")
            << "She met" << std::vector<std::string>{"she", " met"} << false << Spans{};
        QTest::newRow("cut short")
            << "She met him" << std::vector<std::string>{"She", " met"} << false << Spans{};
    }
    void tokenSpansFollowTheText()
    {
        QFETCH(QString, text);
        QFETCH(std::vector<std::string>, tokens);
        QFETCH(bool, found);
        QFETCH(Spans, spans);
        const auto got = tokenSpans(text.toStdString(), tokens);
        QCOMPARE(got.has_value(), found);
        if (found)
            QCOMPARE(*got, spans);
    }

    void previousTokenHeadScoresOneAboveChance()
    {
        const int n = 6;
        RowMatrix previous = RowMatrix::Zero(n, n);
        previous(0, 0) = 1.0f;
        for (int i = 1; i < n; ++i)
            previous(i, i - 1) = 1.0f;
        RowMatrix self = RowMatrix::Identity(n, n);
        const std::vector<int> tokens{1, 2, 3, 4, 5, 6};
        const auto s = scoreHeads(
            HeadPattern::PreviousToken, 1, 2,
            [&](int, int head) -> Eigen::Ref<const RowMatrix> {
                return head == 0 ? previous : self;
            },
            tokens, {}, {}, true);
        QCOMPARE(s.count, n - 1);
        QCOMPARE(s.score(0, 0), 1.0);
        QCOMPARE(s.score(0, 1), 0.0);
        double chance = 0.0;
        for (int i = 1; i < n; ++i)
            chance += 1.0 / (i + 1);
        QVERIFY(std::abs(s.chance - chance / (n - 1)) < 1e-6);
        QCOMPARE(s.best(), 1.0);
    }

    void inductionWithoutRepeatsScoresNothing()
    {
        const RowMatrix even = RowMatrix::Constant(4, 4, 0.25f);
        const auto s = scoreHeads(
            HeadPattern::Induction, 1, 1,
            [&](int, int) -> Eigen::Ref<const RowMatrix> { return even; }, {1, 2, 3, 4}, {}, {},
            false);
        QCOMPARE(s.count, 0);
        QVERIFY(s.scores.empty());
    }

    void relationHeadScoresItsTarget()
    {
        // "Ana ran. She": byte 8..11 "She" -> "Ana" 0..3; a head whose "e" looks at "A".
        const std::string text = "Ana ran. She";
        const int n = int(text.size());
        Spans spans;
        for (int i = 0; i < n; ++i)
            spans.push_back({size_t(i), size_t(i + 1)});
        RowMatrix w = RowMatrix::Identity(n, n);
        w(n - 1, n - 1) = 0.0f;
        w(n - 1, 0) = 0.5f;
        w(n - 1, 2) = 0.5f;
        const std::vector<StoryRelation> relations{{RelationKind::Antecedent, 9, 12, 0, 3}};
        std::vector<int> tokens(size_t(n), 0);
        const auto s = scoreHeads(
            HeadPattern::Antecedent, 1, 1,
            [&](int, int) -> Eigen::Ref<const RowMatrix> { return w; }, tokens, spans, relations,
            true);
        QCOMPARE(s.count, 1);
        QVERIFY(std::abs(s.score(0, 0) - 1.0) < 1e-6);
        QVERIFY(std::abs(s.chance - 3.0 / 12.0) < 1e-6);
        const auto none = scoreHeads(
            HeadPattern::Bracket, 1, 1, [&](int, int) -> Eigen::Ref<const RowMatrix> { return w; },
            tokens, spans, relations, true);
        QCOMPARE(none.count, 0);
    }

    void storyWindowFitsAndKeepsItsRelations_data()
    {
        QTest::addColumn<int>("limit");
        QTest::newRow("Micro's 32") << 32;
        QTest::newRow("Tiny's 64") << 64;
        QTest::newRow("Small's 128") << 128;
    }
    void storyWindowFitsAndKeepsItsRelations()
    {
        QFETCH(int, limit);
        for (uint64_t seed = 1; seed < 20; ++seed) {
            const StoryText story = StoryGenerator(seed).generate(1);
            const StoryText window = storyWindow(
                story, [limit](const std::string &t) { return int(t.size()) <= limit; });
            QVERIFY(!window.text.empty());
            QVERIFY(int(window.text.size()) <= limit);
            QVERIFY(window.text.find('\n') == std::string::npos);
            QCOMPARE(window.text.front() == ' ' || window.text.back() == ' ', false);
            const size_t at = story.text.find(window.text);
            QVERIFY(at != std::string::npos);
            // Every relation inside the window, and it reads the same words as in the story.
            int inside = 0;
            for (const StoryRelation &r : story.relations)
                inside += r.sourceBegin >= at && r.targetBegin >= at &&
                          r.sourceEnd <= at + window.text.size();
            QCOMPARE(int(window.relations.size()), inside);
            for (const StoryRelation &r : window.relations) {
                QVERIFY(r.sourceEnd <= window.text.size());
                const auto same = std::find_if(
                    story.relations.begin(), story.relations.end(), [&](const StoryRelation &o) {
                        return o.kind == r.kind && o.sourceBegin == r.sourceBegin + at &&
                               o.targetBegin == r.targetBegin + at &&
                               o.targetEnd == r.targetEnd + at;
                    });
                QVERIFY(same != story.relations.end());
            }
        }
    }

    void windowAtFindsTheProbe()
    {
        const StoryText story = StoryGenerator(3).generate(2000);
        const size_t from = 1000;
        const size_t start = story.text.find(' ', from) + 1;
        const std::string probe = story.text.substr(start, 20);
        const auto window = windowAt(story, probe, from, 64);
        QVERIFY(window);
        QVERIFY(window->text.size() <= 64);
        QVERIFY(story.text.find(window->text) != std::string::npos);
        QVERIFY(!windowAt(story, "not in any story at all", 0, 64));
        // A probe of names alone: the sentences of its story that fit and hold relations.
        for (size_t at = story.text.find(". ", 0); at != std::string::npos;
             at = story.text.find(". ", at + 1)) {
            const std::string probe = story.text.substr(at + 2, 12);
            const StoryText plain =
                oneLineExcerpt(story, at + 2, std::min(at + 2 + 64, story.text.size()));
            const auto w = windowAt(story, probe, 0, 64);
            QVERIFY(w);
            QVERIFY(w->text.size() <= 64);
            if (story.text.find(probe) != at + 2)
                continue; // found earlier in the text
            if (!plain.relations.empty()) {
                QCOMPARE(w->text, plain.text); // the probe's own window when it has relations
                continue;
            }
            if (w->relations.empty())
                continue; // no sentences of the story within 64 bytes hold one
            // Whole sentences of the probe's story or one after it, with their relations.
            const size_t line = story.text.rfind('\n', at) == std::string::npos
                                    ? 0
                                    : story.text.rfind('\n', at) + 1;
            QVERIFY(story.text.find(w->text, line) != std::string::npos);
            QCOMPARE(w->text.back(), '.');
        }
    }
};

HEADLENS_TEST_MAIN(TestHeadPatternScores)
#include "tst_headpatternscores.moc"
