// tst_headscores: "Score heads against" on the Heads page: each head's caption and the layers x
// heads table show the score computed here by hand from the trace's weights; induction on a text
// without a repeated token says so instead of zeros; the story relations are offered only while
// the text is the story the Story button wrote, and score as its relations say.
#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"
#include "models/modelcontroller.h"
#include "plot/heatmapplot.h"
#include "selection/selection.h"
#include "stories/storygenerator.h"
#include "stories/storywindow.h"
#include "testmain.h"
#include "train/languagemodelview.h"
#include "views/headscorebar.h"
#include "views/headscorer.h"
#include "views/headscoretable.h"
#include "views/headsgridview.h"
#include "views/headspage.h"
#include "window/modelwiring.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using headlens::test::headsPageOf;
using headlens::test::languageModelViewOf;
using headlens::test::modelsOf;
using headlens::test::workspaceOf;

namespace {

std::shared_ptr<const Trace> traceOf(const std::string &text, int heads, bool causal,
                                     TokenizerKind tokenizer = TokenizerKind::Words)
{
    AttentionConfig config;
    config.dModel = 8 * heads;
    config.heads = heads;
    config.causal = causal;
    config.tokenizer = tokenizer;
    AttentionInput input = InputBuilder::fromTexts(config, {text});
    const auto weights = AttentionWeights::initialize(config, int(input.kvInputWidth()));
    return std::make_shared<const Trace>(computeTrace(config, std::move(input), weights));
}

RowMatrix weightsOf(const Trace &trace, int head)
{
    const int n = int(trace.input.queryLengthOf(0));
    return trace.tensor(keys::attentionWeights).matrix({0, head}).topLeftCorner(n, n);
}

/// Mean over queries i >= 1 of w[i, i-1].
double previousTokenByHand(const RowMatrix &w)
{
    double sum = 0.0;
    for (int i = 1; i < w.rows(); ++i)
        sum += double(w(i, i - 1));
    return sum / double(w.rows() - 1);
}

/// For each query whose word appeared before, the weight on the words after its earlier
/// occurrences; averaged over those queries.
double inductionByHand(const RowMatrix &w, const std::vector<std::string> &words)
{
    double sum = 0.0;
    int queries = 0;
    for (int i = 0; i < w.rows(); ++i) {
        double onto = 0.0;
        bool seen = false;
        for (int j = 0; j + 1 < i; ++j)
            if (words[size_t(j)] == words[size_t(i)]) {
                onto += double(w(i, j + 1));
                seen = true;
            }
        if (seen) {
            sum += onto;
            ++queries;
        }
    }
    return sum / queries;
}

/// The line a score adds under a head's title, without the strongest heads' star.
QString noteOf(const HeatmapPlot *plot)
{
    const QString title = plot->title();
    const int line = title.indexOf('\n');
    return line < 0 ? QString() : title.mid(line + 1).remove(QStringLiteral("★"));
}

QString twoDecimals(double value)
{
    return QString::number(value, 'f', 2);
}

/// The page with `text` typed, shown, `pattern` chosen, `trace` on the grid.
void choose(HeadsPage &page, HeadPattern pattern)
{
    QComboBox *box = page.scoreBar()->patternBox();
    box->setCurrentIndex(box->findData(int(pattern)));
    QCOMPARE(page.scoreBar()->pattern(), std::optional<HeadPattern>(pattern));
}

QStandardItem *itemOf(HeadsPage &page, HeadPattern pattern)
{
    QComboBox *box = page.scoreBar()->patternBox();
    return qobject_cast<QStandardItemModel *>(box->model())->item(box->findData(int(pattern)));
}

} // namespace

class TestHeadScores : public QObject
{
    Q_OBJECT

    QTemporaryDir dir;

private slots:
    void initTestCase() { test::keepSettingsIn(dir.filePath("settings")); }

    void previousTokenCaptionsShowTheScoreByHand_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("heads");
        QTest::addColumn<bool>("causal");
        QTest::newRow("lesson, 4 heads, causal")
            << "The tired robot dropped the heavy gear because it broke" << 4 << true;
        QTest::newRow("2 heads, bidirectional") << "a cat sat on a mat today" << 2 << false;
        // 8 heads of 360 x 360 weights: past HeadScorer::kInlineCells, scored in the pool.
        QStringList words;
        for (int i = 0; i < 360; ++i)
            words << QString("w%1").arg(i);
        QTest::newRow("scored off the UI thread") << words.join(' ') << 8 << true;
    }
    void previousTokenCaptionsShowTheScoreByHand()
    {
        QFETCH(QString, text);
        QFETCH(int, heads);
        QFETCH(bool, causal);
        Selection selection;
        HeadsPage page(&selection);
        page.resize(1200, 700);
        page.show();
        const auto trace = traceOf(text.toStdString(), heads, causal);
        page.setText(text);
        page.setTrace(trace, 0);
        // None: the captions are the plain head titles, no table.
        QTRY_VERIFY(!page.grid()->plot(0)->title().contains("previous token"));
        QVERIFY(page.scoreTable()->isHidden());
        choose(page, HeadPattern::PreviousToken);
        // A sentence is scored before the choice returns; a long text in the pool, its numbers
        // coming after (the window never waits for them).
        const int64_t cells =
            int64_t(heads) * trace->input.queryLengthOf(0) * trace->input.queryLengthOf(0);
        QCOMPARE(page.grid()->plot(0)->title().contains("\nprevious token"),
                 cells <= HeadScorer::kInlineCells);
        double best = 0.0;
        for (int h = 0; h < heads; ++h)
            best = std::max(best, previousTokenByHand(weightsOf(*trace, h)));
        // Chance: an even head's weight on the key before, 1/(i+1) causal, 1/n otherwise.
        const int n = int(trace->input.queryLengthOf(0));
        double chance = 0.0;
        for (int i = 1; i < n; ++i)
            chance += causal ? 1.0 / (i + 1) : 1.0 / n;
        chance /= n - 1;
        for (int h = 0; h < heads; ++h) {
            const double expected = previousTokenByHand(weightsOf(*trace, h));
            const QString title = page.grid()->plot(h)->title();
            QTRY_VERIFY2(page.grid()->plot(h)->title().contains(QString("head %1 · ").arg(h + 1)) &&
                             page.grid()->plot(h)->title().contains("\nprevious token "),
                         qPrintable(page.grid()->plot(h)->title()));
            QVERIFY2(page.grid()->plot(h)->title().contains(twoDecimals(expected)),
                     qPrintable(title + " expected " + twoDecimals(expected)));
            // The table's cell of layer 0, and the star on the strongest head only.
            QVERIFY2(page.scoreTable()->cellText(0, h).endsWith(twoDecimals(expected)),
                     qPrintable(page.scoreTable()->cellText(0, h)));
            // Starred: the highest, or within a tenth of it, and above twice chance.
            QCOMPARE(page.scoreTable()->cellText(0, h).startsWith("★"),
                     expected >= 0.9 * best && expected > 2.0 * chance);
        }
        QVERIFY(page.scoreTable()->isVisible());
        QCOMPARE(page.scoreTable()->table()->rowCount(), 1);
        QCOMPARE(page.scoreTable()->table()->columnCount(), heads);
        QVERIFY2(page.scoreTable()->caption().contains("Chance (a head spreading evenly) " +
                                                       twoDecimals(chance)),
                 qPrintable(page.scoreTable()->caption()));
        // Back to None: the numbers go.
        page.scoreBar()->setPattern(std::nullopt);
        QTRY_VERIFY(!page.grid()->plot(0)->title().contains("previous token"));
        QVERIFY(page.scoreTable()->isHidden());
    }

    /// The table of a model's scores: a cell per layer and head, the strongest starred (the
    /// highest and those within a tenth of it, when above twice chance), a click asks for the
    /// head.
    void tableStarsTheStrongestHeads()
    {
        HeadPatternScores scores;
        scores.pattern = HeadPattern::Antecedent;
        scores.layers = 2;
        scores.heads = 3;
        scores.scores = {0.05, 0.10, 0.15, 0.90, 0.82, 0.30};
        scores.chance = 0.12;
        scores.count = 4;
        HeadScoreTable table;
        table.setScores(scores, 1);
        const QStringList cells{"0.05", "0.10", "0.15", "★0.90", "★0.82", "0.30"};
        for (int i = 0; i < 6; ++i)
            QCOMPARE(table.cellText(i / 3, i % 3), cells[i]);
        QVERIFY(table.table()->item(1, 0)->font().bold()); // the grid's layer
        QVERIFY(!table.table()->item(0, 0)->font().bold());
        QVERIFY2(table.caption().startsWith("antecedent score: each head's share of attention "
                                            "from the source word onto its target, over the "
                                            "text's 4 antecedent relations. Chance (a head "
                                            "spreading evenly) 0.12"),
                 qPrintable(table.caption()));
        // Nothing above twice chance: no star.
        scores.chance = 0.5;
        table.setScores(scores, 1);
        QCOMPARE(table.cellText(1, 0), QString("0.90"));
        QSignalSpy chosen(&table, &HeadScoreTable::headChosen);
        emit table.table()->cellClicked(1, 2);
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.at(0).at(0).toInt(), 1);
        QCOMPARE(chosen.at(0).at(1).toInt(), 2);
    }

    void inductionNeedsARepeatedToken()
    {
        Selection selection;
        HeadsPage page(&selection);
        page.resize(1200, 700);
        page.show();
        const std::string once = "every word here is new";
        page.setText(QString::fromStdString(once));
        page.setTrace(traceOf(once, 2, true), 0);
        choose(page, HeadPattern::Induction);
        QTRY_COMPARE(page.scoreBar()->statusLabel()->text(),
                     QString("no token repeats in this text: type a text that repeats itself"));
        QVERIFY(!page.grid()->plot(0)->title().contains("induction"));
        QVERIFY(page.scoreTable()->isHidden());

        const std::string twice = "red fox ran far red fox ran far";
        const auto trace = traceOf(twice, 2, true);
        page.setText(QString::fromStdString(twice));
        page.setTrace(trace, 0);
        const std::vector<std::string> words{"red", "fox", "ran", "far",
                                             "red", "fox", "ran", "far"};
        for (int h = 0; h < 2; ++h) {
            const QString expected =
                "induction " + twoDecimals(inductionByHand(weightsOf(*trace, h), words));
            QTRY_VERIFY2(noteOf(page.grid()->plot(h)) == expected,
                         qPrintable(page.grid()->plot(h)->title() + " expected " + expected));
        }
        QVERIFY(page.scoreBar()->statusLabel()->text().startsWith("Each head's induction score"));
    }

    void relationsHoldOnlyForTheStoryAsWritten()
    {
        Selection selection;
        HeadsPage page(&selection);
        page.setText("The tired robot dropped the heavy gear because it broke");
        for (HeadPattern p :
             {HeadPattern::Antecedent, HeadPattern::Subject, HeadPattern::Bracket}) {
            QVERIFY(!itemOf(page, p)->isEnabled());
            QVERIFY2(itemOf(page, p)->toolTip().contains("press Story"),
                     qPrintable(itemOf(page, p)->toolTip()));
        }
        QVERIFY(itemOf(page, HeadPattern::PreviousToken)->isEnabled());

        QSignalSpy wanted(&page, &HeadsPage::textWanted);
        page.scoreBar()->storyButton()->click();
        QCOMPARE(wanted.count(), 1);
        const QString story = wanted.at(0).at(0).toString();
        QVERIFY(page.story());
        QCOMPARE(story.toStdString(), page.story()->text);
        QVERIFY(!page.story()->relations.empty());
        QVERIFY(!story.contains('\n'));
        QVERIFY(!page.relationsHold()); // the text box has not taken it yet
        page.setText(story);
        QVERIFY(page.relationsHold());
        for (HeadPattern p : {HeadPattern::Antecedent, HeadPattern::Subject, HeadPattern::Bracket})
            QVERIFY(itemOf(page, p)->isEnabled());

        // One letter typed: the offsets no longer hold.
        page.setText(story + "s");
        QVERIFY(!page.relationsHold());
        for (HeadPattern p :
             {HeadPattern::Antecedent, HeadPattern::Subject, HeadPattern::Bracket}) {
            QVERIFY(!itemOf(page, p)->isEnabled());
            QVERIFY2(itemOf(page, p)->toolTip().contains("changed since the story was written"),
                     qPrintable(itemOf(page, p)->toolTip()));
        }
        // Undone: they hold again.
        page.setText(story);
        QVERIFY(itemOf(page, HeadPattern::Antecedent)->isEnabled());
        // Another story each time.
        page.scoreBar()->storyButton()->click();
        QCOMPARE(wanted.count(), 2);
        QVERIFY(wanted.at(1).at(0).toString() != story);
    }

    void storyRelationsScoreAsWritten()
    {
        Selection selection;
        HeadsPage page(&selection);
        page.resize(1200, 700);
        page.show();
        QSignalSpy wanted(&page, &HeadsPage::textWanted);
        // Antecedent chosen first: Story writes a story with a pronoun and its antecedent.
        const RelationKind kind = RelationKind::Antecedent;
        choose(page, HeadPattern::Antecedent);
        page.makeStory();
        QVERIFY(page.story());
        QVERIFY(relationCount(page.story()->relations, kind) > 0);
        const StoryText story = *page.story();
        page.setText(QString::fromStdString(story.text));
        // One character a token: token i is byte i of the (ASCII) story.
        const auto trace = traceOf(story.text, 2, true, TokenizerKind::Characters);
        QCOMPARE(trace->input.queryLengthOf(0), int64_t(story.text.size()));
        page.setTrace(trace, 0);
        choose(page, HeadPattern::Antecedent);
        int count = 0;
        for (const StoryRelation &r : story.relations)
            count += r.kind == kind ? 1 : 0;
        QVERIFY(count > 0);
        for (int h = 0; h < 2; ++h) {
            const RowMatrix w = weightsOf(*trace, h);
            double sum = 0.0;
            for (const StoryRelation &r : story.relations) {
                if (r.kind != kind)
                    continue;
                for (size_t t = r.targetBegin; t < r.targetEnd; ++t)
                    sum += double(w(int(r.sourceEnd - 1), int(t)));
            }
            const QString expected = "antecedent " + twoDecimals(sum / count);
            QTRY_VERIFY2(noteOf(page.grid()->plot(h)) == expected,
                         qPrintable(page.grid()->plot(h)->title() + " expected " + expected));
        }
        double chance = 0.0;
        for (const StoryRelation &r : story.relations)
            if (r.kind == kind)
                chance += double(r.targetEnd - r.targetBegin) / double(r.sourceEnd);
        QVERIFY2(page.scoreTable()->caption().contains(
                     QString("over the text's %1 antecedent relations").arg(count)) ||
                     count == 1,
                 qPrintable(page.scoreTable()->caption()));
        QVERIFY2(page.scoreTable()->caption().contains("evenly) " + twoDecimals(chance / count)),
                 qPrintable(page.scoreTable()->caption()));
        // An edit takes the relation scores off the heads and says why.
        page.setText(QString::fromStdString(story.text) + " More.");
        QTRY_VERIFY(!page.grid()->plot(0)->title().contains("antecedent"));
        QVERIFY(page.scoreBar()->statusLabel()->text().contains("press Story"));
    }

    /// A model trained on the stories (Micro), opened in the views: the text box holds the probe's
    /// held-out window with the relations inside it, and every head of the real run is scored.
    void openInViewsBringsTheProbesRelations()
    {
        std::unique_ptr<MainWindow> window =
            test::settledWindow(QStringLiteral("Tokuye saw Moquiste."), QSize(1280, 720));
        QVERIFY(window);
        LanguageModelView *lm = languageModelViewOf(*window);
        // Micro (context 32: a sentence with a bracket fits), as the sanitizer build runs this
        // too; 10 steps are enough to open it.
        lm->presetBox()->setCurrentIndex(lm->presetBox()->findData(QStringLiteral("micro")));
        lm->stepsBox()->setValue(10);
        lm->useStories();
        QTRY_VERIFY_WITH_TIMEOUT(!lm->isBusy() && lm->lastReport(), 120000);
        lm->train();
        QTRY_VERIFY_WITH_TIMEOUT(!lm->isBusy() && lm->stepsDone() == 10, 240000);
        QApplication::processEvents();
        // The window the probe starts, found in the held-out tenth of the same stories.
        const StoryText stories = StoryGenerator(0).generate(LanguageModelView::kStoryBytes);
        std::string probe;
        for (int byte : lm->lastReport()->snapshot.tokens)
            probe += char(byte);
        const auto expected = windowAt(stories, probe, stories.text.size() * 9 / 10, 32);
        QVERIFY(expected);
        QVERIFY2(!expected->relations.empty(), expected->text.c_str());
        lm->openInViews();
        QCOMPARE(workspaceOf(*window)->state().text.toStdString(), expected->text);
        HeadsPage *page = headsPageOf(*window);
        QVERIFY(page->story());
        QCOMPARE(page->story()->text, expected->text);
        QCOMPARE(page->story()->relations.size(), expected->relations.size());
        QVERIFY(page->relationsHold());
        QVERIFY(test::waitUntilSettled(*window));
        QTRY_VERIFY_WITH_TIMEOUT(modelsOf(*window)->controller()->run() &&
                                     modelsOf(*window)->controller()->run()->tokenIds.size() ==
                                         expected->text.size(),
                                 20000);
        const auto run = modelsOf(*window)->controller()->run();
        // The kind of the window's first relation, scored from the run's own weights: one
        // byte a token, so a relation's bytes are its tokens.
        const RelationKind kind = expected->relations.front().kind;
        const HeadPattern pattern = kind == RelationKind::Antecedent ? HeadPattern::Antecedent
                                    : kind == RelationKind::Subject  ? HeadPattern::Subject
                                                                     : HeadPattern::Bracket;
        QVERIFY(itemOf(*page, pattern)->isEnabled());
        choose(*page, pattern);
        for (int h = 0; h < run->heads; ++h) {
            const RowMatrix w = run->probabilities(0, h);
            double sum = 0.0;
            int count = 0;
            for (const StoryRelation &r : expected->relations) {
                if (r.kind != kind)
                    continue;
                for (size_t t = r.targetBegin; t < r.targetEnd; ++t)
                    sum += double(w(int(r.sourceEnd - 1), int(t)));
                ++count;
            }
            const QString caption =
                QString::fromUtf8(toString(pattern)) + " " + twoDecimals(sum / count);
            QTRY_VERIFY2(noteOf(page->grid()->plot(h)) == caption,
                         qPrintable(page->grid()->plot(h)->title() + " expected " + caption));
        }
        QCOMPARE(page->scoreTable()->table()->rowCount(), run->layers);
        QCOMPARE(page->scoreTable()->table()->columnCount(), run->heads);
        // The second layer's heads are in the table, from its own weights.
        choose(*page, HeadPattern::PreviousToken);
        for (int h = 0; h < run->heads; ++h) {
            const QString cell = twoDecimals(previousTokenByHand(run->probabilities(1, h)));
            QTRY_VERIFY2(page->scoreTable()->cellText(1, h).endsWith(cell),
                         qPrintable(page->scoreTable()->cellText(1, h) + " expected " + cell));
        }
    }
};

HEADLENS_TEST_MAIN(TestHeadScores)
#include "tst_headscores.moc"
