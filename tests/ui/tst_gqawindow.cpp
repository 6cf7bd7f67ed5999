// tst_gqawindow: K/V heads, RoPE, ALiBi and the sliding window driven through the window's own
// controls, checked in the heads grid, the pipeline, the RoPE panel, the cost tab and the banner.
#include "cost/costpanel.h"
#include "cost/costsettingsform.h"
#include "cost/costtable.h"
#include "panels/controlspanel.h"
#include "panels/problembanner.h"
#include "pipeline/pipelineview.h"
#include "pipeline/ropepanel.h"
#include "plot/heatmapplot.h"
#include "plotsonscreen.h"
#include "runner/positionshiftrunner.h"
#include "steps/shapediagram.h"
#include "testmain.h"
#include "views/headsgridview.h"
#include "views/kvgroupframe.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>

using namespace headlens;
using headlens::test::controlsOf;
using headlens::test::costPanelOf;
using headlens::test::gridOf;
using headlens::test::pipelineOf;
using headlens::test::rectIn;
using headlens::test::runnerOf;
using headlens::test::shownTraceOf;
using headlens::test::tabsOf;
using headlens::test::waitUntilSettled;
using headlens::test::workspaceOf;

class TestGqaWindow : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<MainWindow> window;

    template <typename T> T *child(const char *name) { return window->findChild<T *>(name); }

    /// Types `value` into the spin box `name`, as a person would.
    void type(const char *name, int value)
    {
        auto *box = child<QAbstractSpinBox>(name);
        QVERIFY2(box, name);
        box->setFocus();
        box->selectAll();
        QTest::keyClicks(box, QString::number(value));
        QTest::keyClick(box, Qt::Key_Enter);
    }
    void choose(const char *combo, const QString &data)
    {
        auto *box = child<QComboBox>(combo);
        QVERIFY2(box && box->findData(data) >= 0, combo);
        box->setCurrentIndex(box->findData(data));
    }
    /// Waits for a trace made with `kvHeads` K/V heads and for the views to take it.
    bool settledWith(int kvHeads)
    {
        const bool ok = QTest::qWaitFor(
            [&] {
                return shownTraceOf(*window) &&
                       shownTraceOf(*window)->config.kvHeadCount() == kvHeads &&
                       !runnerOf(*window)->isBusy();
            },
            20000);
        return ok && waitUntilSettled(*window);
    }
    int stepIndex(const std::string &id) const
    {
        const auto &steps = shownTraceOf(*window)->steps;
        for (size_t i = 0; i < steps.size(); ++i)
            if (steps[i].id == id)
                return int(i);
        return -1;
    }

private slots:
    void init()
    {
        window = std::make_unique<MainWindow>();
        window->resize(1400, 900);
        window->show();
        window->recompute();
        QVERIFY(waitUntilSettled(*window));
    }
    void cleanup() { window.reset(); }

    void gridFramesTheHeadsThatShareKAndV_data();
    void gridFramesTheHeadsThatShareKAndV();
    void pipelineShowsTheRotateAndRepeatSteps();
    void hoverNamesTheMaskThatHidesACell_data();
    void hoverNamesTheMaskThatHidesACell();
    void ropeShiftLeavesTheScores();
    void costPanelFollowsTheLayer();
    void invalidSettingsOfferFixesThatWork_data();
    void invalidSettingsOfferFixesThatWork();
};

void TestGqaWindow::gridFramesTheHeadsThatShareKAndV_data()
{
    QTest::addColumn<int>("kvHeads");
    QTest::newRow("GQA, 2 groups of 4") << 2;
    QTest::newRow("GQA, 4 groups of 2") << 4;
    QTest::newRow("MQA, one group") << 1;
    QTest::newRow("MHA, no frames") << 8;
}

// Frames are found by what they contain on screen, not by the view's bookkeeping alone: each
// holds exactly the heads kvHeadOf maps to it, inside its rectangle, with titles saying so.
void TestGqaWindow::gridFramesTheHeadsThatShareKAndV()
{
    QFETCH(int, kvHeads);
    workspaceOf(*window)->setConfig([this] {
        AttentionConfig c = workspaceOf(*window)->state().config;
        c.kvHeads = 2; // start grouped, so that the MHA row must take the frames away
        return c;
    }());
    QVERIFY(settledWith(2));
    type("kv_heads", kvHeads);
    QVERIFY(settledWith(kvHeads));
    const AttentionConfig &c = shownTraceOf(*window)->config;
    QCOMPARE(c.heads, 8);
    HeadsGridView *grid = gridOf(*window);
    const QList<KvGroupFrame *> frames = grid->findChildren<KvGroupFrame *>();
    QCOMPARE(int(frames.size()), kvHeads < 8 ? kvHeads : 0);
    QCOMPARE(grid->groupCount(), int(frames.size()));
    for (KvGroupFrame *frame : frames) {
        QVERIFY(frame->isVisible());
        const int g = frame->kvHead();
        for (int head = 0; head < 8; ++head) {
            HeatmapPlot *plot = grid->plot(head);
            const bool inGroup = c.kvHeadOf(head) == g;
            QCOMPARE(frame->isAncestorOf(plot), inGroup);
            QCOMPARE(rectIn(grid, frame).contains(rectIn(grid, plot)), inGroup);
        }
        QCOMPARE(frame->caption(), QString("K/V head %1 · shared by heads %2–%3")
                                       .arg(g + 1)
                                       .arg(g * 8 / kvHeads + 1)
                                       .arg((g + 1) * 8 / kvHeads));
    }
    for (int head = 0; head < 8; ++head) {
        const QString title = grid->plot(head)->title();
        const QString expected =
            kvHeads < 8 ? QString("head %1 · K/V %2 · H ").arg(head + 1).arg(head * kvHeads / 8 + 1)
                        : QString("head %1 · H ").arg(head + 1);
        QVERIFY2(title.startsWith(expected), qPrintable(title));
        QVERIFY(grid->plot(head)->isVisible());
    }
}

// The picture: --heads 8 --kv-heads 2 --d-model 512 with RoPE, on the lesson sentence.
void TestGqaWindow::pipelineShowsTheRotateAndRepeatSteps()
{
    choose("attention_positions", "rope");
    type("kv_heads", 2);
    QVERIFY(settledWith(2));
    QVERIFY(shownTraceOf(*window)->config.usesRope());
    QCOMPARE(shownTraceOf(*window)->queryLength(), int64_t(10));
    window->showPipeline();
    PipelineView *view = pipelineOf(*window);
    const int rotate = stepIndex("rotate"), repeat = stepIndex("repeat_kv");
    QVERIFY(rotate > 0 && repeat == rotate + 1);
    view->setStep(repeat, false);
    QCOMPARE(view->shapeBeforeText(), QString("k_rot (b=1, h_kv=2, n_kv=10, d_k=64)"));
    QCOMPARE(view->shapeAfterText(), QString("k_repeated (b=1, h=8, n_kv=10, d_k=64)"));
    QVERIFY(view->diagram()->before() == Shape({{"b", 1}, {"h_kv", 2}, {"n_kv", 10}, {"d_k", 64}}));
    QVERIFY(view->diagram()->after() == Shape({{"b", 1}, {"h", 8}, {"n_kv", 10}, {"d_k", 64}}));
    view->setStep(rotate, false);
    QCOMPARE(view->shapeBeforeText(), QString("q_heads (b=1, h=8, n=10, d_k=64)"));
    QCOMPARE(view->shapeAfterText(), QString("q_rot (b=1, h=8, n=10, d_k=64)"));
    QCOMPARE(shownTraceOf(*window)->tensor(keys::kRot).shape().toString(),
             std::string("(b=1, h_kv=2, n_kv=10, d_k=64)"));
    QCOMPARE(view->sideTabs()->currentWidget(), static_cast<QWidget *>(view->ropePanel()));
    QVERIFY(view->ropePanel()->isVisible());
}

void TestGqaWindow::hoverNamesTheMaskThatHidesACell_data()
{
    QTest::addColumn<int>("query");
    QTest::addColumn<int>("key");
    QTest::addColumn<QString>("reason");
    // Window 3 with the causal mask: query 8 ("it") sees keys 6, 7 and 8 only.
    QTest::newRow("too far back") << 8 << 2 << "the sliding window";
    QTest::newRow("just out of the window") << 8 << 5 << "the sliding window";
    QTest::newRow("later key") << 2 << 5 << "causal";
}

void TestGqaWindow::hoverNamesTheMaskThatHidesACell()
{
    QFETCH(int, query);
    QFETCH(int, key);
    QFETCH(QString, reason);
    child<QCheckBox>("causal")->click();
    type("window", 3);
    QVERIFY(QTest::qWaitFor([&] { return shownTraceOf(*window)->config.window == 3; }, 20000));
    QVERIFY(waitUntilSettled(*window));
    QVERIFY(shownTraceOf(*window)->config.causal);
    HeatmapPlot *plot = gridOf(*window)->plot(1);
    QTest::mouseMove(
        plot, QPoint(int(plot->xAxis->coordToPixel(key)), int(plot->yAxis->coordToPixel(query))));
    QTRY_VERIFY(gridOf(*window)->hoverText().contains(" -> "));
    const QString text = gridOf(*window)->hoverText();
    const QStringList tokens = QString(kLessonSentence).split(' ');
    QVERIFY2(text.startsWith(QString("head 2 · \"%1\" -> \"%2\" · masked (%3")
                                 .arg(tokens[query], tokens[key], reason)),
             qPrintable(text));
    // And the cell next to it inside the window is a weight, not a mask.
    QTest::mouseMove(
        plot, QPoint(int(plot->xAxis->coordToPixel(query)), int(plot->yAxis->coordToPixel(query))));
    QTRY_VERIFY2(gridOf(*window)->hoverText().contains("weight"),
                 qPrintable(gridOf(*window)->hoverText()));
}

// RoPE's relative property on the text on screen: every position + 1000, the scores move by
// float rounding only, though q_rot itself moves by a lot (so two different passes are compared).
void TestGqaWindow::ropeShiftLeavesTheScores()
{
    choose("attention_positions", "rope");
    type("kv_heads", 2);
    QVERIFY(settledWith(2));
    window->showPipeline();
    pipelineOf(*window)->setStep(stepIndex("rotate"), false);
    RopePanel *rope = pipelineOf(*window)->ropePanel();
    QVERIFY(rope->isVisible());
    type("ropeShift", 1000);
    QCOMPARE(rope->shift(), 1000);
    QTRY_VERIFY_WITH_TIMEOUT(rope->shownScoresDifference() >= 0.0, 20000);
    QCOMPARE(rope->shownCheck().shift, 1000);
    QVERIFY2(rope->shownScoresDifference() < 1e-4,
             qPrintable(QString::number(rope->shownScoresDifference())));
    QVERIFY(rope->shownCheck().rotatedQueryDifference > 0.1);
    QVERIFY2(rope->shiftText().contains("s = 1000"), qPrintable(rope->shiftText()));
    // Leaving the tab stops asking for checks; the window is not waiting for any.
    tabsOf(*window)->setCurrentIndex(0);
    QVERIFY(!rope->isVisible());
}

// Until a preset or an edit, the panel compares the layer on the left at the text's length.
void TestGqaWindow::costPanelFollowsTheLayer()
{
    type("kv_heads", 2);
    QVERIFY(settledWith(2));
    CostPanel *cost = costPanelOf(*window);
    QVERIFY(cost->form()->isFollowing());
    const CostTable *table = cost->table();
    QCOMPARE(table->cell(CostTable::KvHeads, CostTable::Chosen), QString("2"));
    QCOMPARE(table->cell(CostTable::KvHeads, CostTable::MultiHead), QString("8"));
    // 10 tokens, float32: 2 K/V heads · (64 + 64) · 4 bytes = 1 KiB a token, 10 KiB in all.
    QCOMPARE(table->cell(CostTable::CachePerTokenPerLayer, CostTable::Chosen), QString("1 KiB"));
    QCOMPARE(table->cell(CostTable::CacheWholeContext, CostTable::Chosen), QString("10 KiB"));
}

void TestGqaWindow::invalidSettingsOfferFixesThatWork_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<int>("bad");
    QTest::addColumn<int>("fix");       // which button
    QTest::addColumn<QString>("words"); // in the banner
    QTest::newRow("3 K/V heads for 8, fix 2") << "kv_heads" << 3 << 0 << "cannot share 3 K/V heads";
    QTest::newRow("3 K/V heads for 8, fix 4") << "kv_heads" << 3 << 1 << "cannot share 3 K/V heads";
    QTest::newRow("RoPE with odd d_k, fix heads") << "rope_d_model" << 24 << 0 << "must be even";
    QTest::newRow("RoPE with odd d_k, fix d_model") << "rope_d_model" << 24 << 2 << "must be even";
    QTest::newRow("RoPE theta 1") << "rope_theta" << 1 << 0 << "above 1";
    // Values no spin box can make, as an edited workspace file may hold them.
    QTest::newRow("window -2") << "window" << -2 << 0 << "sliding window";
    QTest::newRow("offset past the limit") << "rope_position_offset" << (1 << 25) << 0 << "offset";
}

void TestGqaWindow::invalidSettingsOfferFixesThatWork()
{
    QFETCH(QString, field);
    QFETCH(int, bad);
    QFETCH(int, fix);
    QFETCH(QString, words);
    const auto before = shownTraceOf(*window);
    if (field != "kv_heads")
        choose("attention_positions", "rope");
    if (field == "kv_heads" || field == "rope_theta") {
        type(field == "kv_heads" ? "kv_heads" : "rope_theta", bad);
    } else if (field == "rope_d_model") {
        type("d_model", bad); // 24 / 8 heads = 3, odd
    } else {
        AttentionConfig c = workspaceOf(*window)->state().config;
        (field == "window" ? c.window : c.ropePositionOffset) = bad;
        workspaceOf(*window)->setConfig(c);
    }
    ProblemBanner *banner = controlsOf(*window)->banner();
    QTRY_VERIFY(banner->isVisible());
    QVERIFY2(banner->message().contains(words), qPrintable(banner->message()));
    QVERIFY(waitUntilSettled(*window));
    // the last good picture stays
    QVERIFY(shownTraceOf(*window)->config.validate() == std::nullopt);
    const QList<QWidget *> buttons = banner->fixButtons();
    QVERIFY(fix < buttons.size());
    const QString label = qobject_cast<QPushButton *>(buttons[fix])->text();
    QTest::mouseClick(qobject_cast<QPushButton *>(buttons[fix]), Qt::LeftButton);
    const AttentionConfig &c = workspaceOf(*window)->state().config;
    QVERIFY2(!c.validate(), qPrintable(label));
    QTRY_VERIFY_WITH_TIMEOUT(shownTraceOf(*window) != before && !runnerOf(*window)->isBusy(),
                             20000);
    QVERIFY(waitUntilSettled(*window));
    QCOMPARE(shownTraceOf(*window)->config, c);
    QTRY_VERIFY(!banner->isVisible());
    if (field == "kv_heads") {
        const int chosen = fix == 0 ? 2 : 4;
        QCOMPARE(label, QString("use %1 K/V heads").arg(chosen));
        QCOMPARE(c.kvHeads, chosen);
        QCOMPARE(gridOf(*window)->groupCount(), chosen);
        QCOMPARE(child<QSpinBox>("kv_heads")->value(), chosen);
    }
    if (field == "rope_d_model")
        QVERIFY2(label.startsWith(fix == 0 ? "use 6 heads" : "use d_model 16"), qPrintable(label));
    if (field == "rope_theta")
        QCOMPARE(c.ropeTheta, 10000.0f);
    if (field == "window")
        QCOMPARE(c.window, 0);
    if (field == "rope_position_offset")
        QCOMPARE(c.ropePositionOffset, 0);
}

HEADLENS_TEST_MAIN(TestGqaWindow)
#include "tst_gqawindow.moc"
