// Tests that the pipeline view shows the trace's shapes at every step and steps with the keys.
#include "approx.h"
#include "drawnheatmap.h"
#include "pipelinecases.h"

#include "attention/inputbuilder.h"
#include "pipeline/kvgroupdiagram.h"
#include "pipeline/ropearrows.h"
#include "pipeline/ropepanel.h"
#include "pipeline/splitconcatpanel.h"
#include "plot/heatmapplot.h"
#include "text/tokenizer.h"

#include "coremetatypes.h"
#include "pipeline/cellarithmeticpanel.h"
#include "pipeline/pipelineview.h"
#include "pipeline/tensorgallery.h"
#include "selection/selection.h"
#include "steps/outputprojectionpanel.h"
#include "steps/shapediagram.h"
#include "testmain.h"

#include <QApplication>
#include <QComboBox>
#include <QTabWidget>
#include <QTest>

#include <cmath>

using namespace headlens;

class TestPipelineView : public QObject
{
    Q_OBJECT

private slots:
    void everyStepShowsTheTracesShapes_data() { test::addPipelineCases(); }
    void everyStepShowsTheTracesShapes();
    void keysWalkThroughEveryStepAndBack();
    void outputPanelChecksTheSum_data() { test::addPipelineCases(); }
    void outputPanelChecksTheSum();
    void hiddenOutputPanelDrawsTheNewTraceWhenShown();
    void pickedCellShowsTheTracesWeight();
    void kvHeadsHaveTheirOwnPanels();
    void repeatStepCopiesEachKvHeadForItsGroup();
    void alibiBiasHasItsOwnPanels();
    void ropePanelReadsTheTracesNumbers_data();
    void ropePanelReadsTheTracesNumbers();
};

namespace {

QString shapeText(const Trace &t, const std::vector<TraceKey> &keys)
{
    return keys.empty() ? QString("text")
                        : QString::fromStdString(keys.front().str() + " " +
                                                 t.tensor(keys.front()).shape().toString());
}

std::shared_ptr<const Trace> variantTrace(int heads, int kvHeads, AttentionPositions positions,
                                          int offset = 0)
{
    AttentionConfig config;
    config.dModel = 512;
    config.heads = heads;
    config.kvHeads = kvHeads;
    config.attentionPositions = positions;
    config.ropePositionOffset = offset;
    config.seed = 5;
    AttentionInput input = InputBuilder::fromTexts(
        config, {"The tired robot dropped the heavy gear because it broke"});
    const auto weights = AttentionWeights::initialize(config, int(input.kvInputWidth()));
    return std::make_shared<const Trace>(computeTrace(config, std::move(input), weights));
}

int stepOf(const Trace &t, const std::string &id)
{
    for (size_t i = 0; i < t.steps.size(); ++i)
        if (t.steps[i].id == id)
            return int(i);
    return -1;
}

/// Picks `tensor` in the gallery's combo, as a person would, and returns its shown panels in
/// the order they were made (panel i = head i).
std::vector<HeatmapPlot *> showTensor(PipelineView &view, const QString &tensor)
{
    auto *combo = view.gallery()->findChild<QComboBox *>();
    const int index = combo->findText(tensor);
    if (index < 0)
        return {};
    combo->setCurrentIndex(index);
    std::vector<HeatmapPlot *> panels;
    for (HeatmapPlot *plot : view.gallery()->findChildren<HeatmapPlot *>())
        if (plot->isVisibleTo(view.gallery()))
            panels.push_back(plot);
    return panels;
}

std::shared_ptr<const TraceAnalysis> analysisOf(const test::PipelineCase &c)
{
    auto analysis = std::make_shared<TraceAnalysis>();
    analysis->trace = c.trace;
    analysis->parameters = c.weights;
    return analysis;
}

} // namespace

void TestPipelineView::everyStepShowsTheTracesShapes()
{
    QFETCH(QString, caseName);
    const test::PipelineCase c = test::makePipelineCase(caseName);
    const Trace &t = *c.trace;
    PipelineView view;
    view.setTrace(c.trace, int(t.batch()) - 1);
    QCOMPARE(view.stepCount(), 14);
    for (int i = 0; i < view.stepCount(); ++i) {
        view.setStep(i, false);
        const TraceStep &step = t.steps[size_t(i)];
        QCOMPARE(view.shapeBeforeText(), shapeText(t, step.inputs));
        QCOMPARE(view.shapeAfterText(), shapeText(t, step.outputs));
        QVERIFY(view.diagram()->after() == t.tensor(step.outputs.front()).shape());
        if (!step.inputs.empty())
            QVERIFY(view.diagram()->before() == t.tensor(step.inputs.front()).shape());
        // Per-head tensors are drawn one panel per head.
        const Shape &drawn = t.tensor(view.gallery()->currentKey()).shape();
        const bool perHead = drawn.rank() == 4;
        QCOMPARE(view.gallery()->panelCount(), perHead ? t.heads() : 1);
    }
    // The shapes the lessons spend their words on, with this case's sizes.
    view.setStep(3, false); // split
    QCOMPARE(view.diagram()->after().name(2), std::string("h"));
    QCOMPARE(view.diagram()->after().size(3), int64_t(t.config.headDimK()));
    view.setStep(12, false); // concat
    QCOMPARE(view.diagram()->after().size(2), int64_t(t.heads() * t.config.headDimV()));
}

void TestPipelineView::keysWalkThroughEveryStepAndBack()
{
    const test::PipelineCase c = test::makePipelineCase("tiny");
    PipelineView view;
    view.setTrace(c.trace, 0);
    QCOMPARE(view.step(), 0);
    QStringList titles;
    for (int i = 1; i < view.stepCount(); ++i) {
        QTest::keyClick(&view, Qt::Key_Right);
        QCOMPARE(view.step(), i);
    }
    QTest::keyClick(&view, Qt::Key_Right); // stays on the last step
    QCOMPARE(view.step(), view.stepCount() - 1);
    for (int i = view.stepCount() - 2; i >= 0; --i) {
        QTest::keyClick(&view, Qt::Key_Left);
        QCOMPARE(view.step(), i);
    }
    QTest::keyClick(&view, Qt::Key_End);
    QCOMPARE(view.step(), 13);
    QCOMPARE(view.shapeAfterText(), QString("output (b=1, n=10, d_model=8)"));
    QTest::keyClick(&view, Qt::Key_Home);
    QCOMPARE(view.step(), 0);
}

void TestPipelineView::outputPanelChecksTheSum()
{
    QFETCH(QString, caseName);
    const test::PipelineCase c = test::makePipelineCase(caseName);
    PipelineView view;
    view.setTrace(c.trace, 0);
    QVERIFY(view.outputPanel()->largestGap() < 0.0); // weights not known yet
    view.setAnalysis(analysisOf(c));
    HL_COMPARE_NEAR(view.outputPanel()->largestGap(), 0.0, 0.0, 1e-5);
}

// QCustomPlot draws every layer on replot, shown or not. Behind another side tab the W_O
// panel's plots do not replot for a new trace (a long text's bars and W_O took ~10 ms each
// time); shown again they draw it.
void TestPipelineView::hiddenOutputPanelDrawsTheNewTraceWhenShown()
{
    PipelineView view;
    view.resize(1300, 900);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.sideTabs()->setCurrentWidget(view.outputPanel());
    QCustomPlot *bars = view.outputPanel()->barsPlot();
    int replots = 0;
    connect(bars, &QCustomPlot::afterReplot, &view, [&replots] { ++replots; });
    view.setTrace(test::makePipelineCase("tiny").trace, 0);
    QTRY_VERIFY(replots > 0); // shown: drawn at once

    view.sideTabs()->setCurrentIndex(0);
    QVERIFY(!view.outputPanel()->isVisible());
    replots = 0;
    const auto causal = test::makePipelineCase("causal");
    view.setTrace(causal.trace, 0);
    view.setAnalysis(analysisOf(causal));
    QTest::qWait(50);
    QCOMPARE(replots, 0);
    view.sideTabs()->setCurrentWidget(view.outputPanel());
    QTRY_VERIFY(replots > 0);
    QCOMPARE(bars->plottableCount(), causal.trace->heads()); // three heads' bars, not two
}

// A click in the heads grid (through the shared selection) explains that cell.
void TestPipelineView::pickedCellShowsTheTracesWeight()
{
    const test::PipelineCase c = test::makePipelineCase("causal");
    Selection selection;
    PipelineView view;
    view.setSelection(&selection);
    view.setTrace(c.trace, 0);
    selection.pickCell(2, 7, 6);
    QCOMPARE(view.cellPanel()->head(), 2);
    QCOMPARE(view.cellPanel()->query(), 7);
    QCOMPARE(view.cellPanel()->key(), 6);
    QCOMPARE(view.cellPanel()->shownWeight(),
             double(c.trace->tensor(keys::attentionWeights).at({0, 2, 7, 6})));
    // One numbering, as the formulas write t_1 … t_n: the cell (2, 7, 6) of the arrays is
    // head 3, query 8, key 7, and key 7 is the marked row of the softmax table.
    const QString text = view.cellPanel()->toPlainText();
    const QString query =
        QString::fromStdString(Tokenizer::displayLabel(c.trace->input.queryLabel(0, 7)));
    const QString key =
        QString::fromStdString(Tokenizer::displayLabel(c.trace->input.keyLabel(0, 6)));
    QVERIFY2(text.contains(QString("head 3: query 8 “%1” → key 7 “%2”").arg(query, key)),
             qPrintable(text.left(200)));
    QVERIFY2(text.contains(QString("7 “%1”").arg(key)), qPrintable(text));
    QVERIFY2(!text.contains(QString("0 “%1”").arg(
                 QString::fromStdString(Tokenizer::displayLabel(c.trace->input.keyLabel(0, 0))))),
             "the softmax table's first key is numbered 1");
}

// After the transpose, k_heads has h_kv = 2 heads: two panels, named for the K/V heads and the
// query heads that read them, each drawing its own K/V head's keys.
void TestPipelineView::kvHeadsHaveTheirOwnPanels()
{
    const auto trace = variantTrace(8, 2, AttentionPositions::None);
    PipelineView view;
    view.setTrace(trace, 0);
    view.setStep(stepOf(*trace, "transpose"), false);
    const auto panels = showTensor(view, "k_heads");
    QCOMPARE(int(panels.size()), 2);
    QCOMPARE(view.gallery()->panelCount(), 2);
    for (int g = 0; g < 2; ++g) {
        QCOMPARE(panels[size_t(g)]->title(),
                 QString("K/V head %1 · heads %2–%3").arg(g + 1).arg(4 * g + 1).arg(4 * g + 4));
        const RowMatrix expected = trace->tensor(keys::kHeads).matrix({0, g});
        const QByteArray cells =
            test::cellsMismatch(test::drawnCells(*panels[size_t(g)]), expected);
        QVERIFY2(cells.isEmpty(), cells.constData());
    }
    // The split panel cuts k into the same 2 K/V heads, under q's 8, at q's cell width.
    view.setStep(stepOf(*trace, "split"), false);
    const SplitConcatPanel *split = view.splitPanel();
    QVERIFY(split->kvBar()->isVisibleTo(split));
    // The token picker numbers tokens from 1, as One cell and the formulas (t_1 … t_n) do.
    const auto *token = split->findChild<QComboBox *>("splitToken");
    QVERIFY(token);
    QCOMPARE(token->count(), 10);
    QCOMPARE(token->itemText(0), QString("1 “%1”").arg(QString::fromStdString(
                                     Tokenizer::displayLabel(trace->input.queryLabel(0, 0)))));
    QCOMPARE(split->bar()->total(), 8 * 64);
    QCOMPARE(split->kvBar()->total(), 2 * 64);
    QVERIFY(split->kvBar()->routeText().startsWith("Click"));
    split->kvBar()->pickFeature(64 + 5); // K/V head 2, place 6
    QVERIFY2(split->kvBar()->routeText().contains("K/V head 2, place 6 of 64"),
             qPrintable(split->kvBar()->routeText()));
    QVERIFY(split->kvBar()->routeText().contains("k_heads[0, 1, 0, 5]"));
}

// The repeat step: eight panels of k_repeated, head i's being K/V head floor(i * 2 / 8)'s keys
// exactly, and the side picture of each K/V head fanning out to its four query heads.
void TestPipelineView::repeatStepCopiesEachKvHeadForItsGroup()
{
    const auto trace = variantTrace(8, 2, AttentionPositions::None);
    PipelineView view;
    view.setTrace(trace, 0);
    view.setStep(stepOf(*trace, "repeat_kv"), false);
    QCOMPARE(view.shapeBeforeText(), QString("k_heads (b=1, h_kv=2, n_kv=10, d_k=64)"));
    QCOMPARE(view.shapeAfterText(), QString("k_repeated (b=1, h=8, n_kv=10, d_k=64)"));
    const auto panels = showTensor(view, "k_repeated");
    QCOMPARE(int(panels.size()), 8);
    for (int head = 0; head < 8; ++head) {
        QCOMPARE(panels[size_t(head)]->title(),
                 QString("head %1 · K/V %2").arg(head + 1).arg(head / 4 + 1));
        const RowMatrix copied = trace->tensor(keys::kHeads).matrix({0, head / 4});
        const QByteArray cells =
            test::cellsMismatch(test::drawnCells(*panels[size_t(head)]), copied);
        QVERIFY2(cells.isEmpty(), cells.constData());
    }
    QCOMPARE(view.sideTabs()->currentWidget(), static_cast<QWidget *>(view.splitPanel()));
    const KvGroupDiagram *diagram = view.splitPanel()->groupDiagram();
    QVERIFY(diagram->isVisibleTo(view.splitPanel()));
    QVERIFY(!view.splitPanel()->bar()->isVisibleTo(view.splitPanel()));
    QVERIFY2(diagram->caption().contains("copied for the 4 query heads"),
             qPrintable(diagram->caption()));
    QVERIFY2(diagram->cacheText().contains("2 × 10 tokens × (64 + 64) = 2,560"),
             qPrintable(diagram->cacheText()));
}

// With ALiBi the scores step has alibi_bias beside Q K^T: one panel per head, -m_h (i - j)
// with Press et al.'s slopes m_h = 2^-(h+1) for 8 heads.
void TestPipelineView::alibiBiasHasItsOwnPanels()
{
    const auto trace = variantTrace(8, 0, AttentionPositions::Alibi);
    PipelineView view;
    view.setTrace(trace, 0);
    view.setStep(stepOf(*trace, "scores"), false);
    const auto panels = showTensor(view, "alibi_bias");
    QCOMPARE(int(panels.size()), 8);
    for (int head = 0; head < 8; ++head) {
        const double slope = std::pow(2.0, -(head + 1));
        QCOMPARE(panels[size_t(head)]->title(),
                 QString("head %1 · m %2").arg(head + 1).arg(slope, 0, 'g', 3));
        const RowMatrix drawn = test::drawnCells(*panels[size_t(head)]);
        QCOMPARE(drawn.rows(), Eigen::Index(10));
        for (int i = 0; i < 10; ++i)
            for (int j = 0; j < 10; ++j)
                HL_COMPARE_NEAR(drawn(i, j), -slope * (i - j), 1e-6, 1e-6);
    }
}

void TestPipelineView::ropePanelReadsTheTracesNumbers_data()
{
    QTest::addColumn<AttentionPositions>("positions");
    QTest::addColumn<int>("offset");
    QTest::addColumn<int>("head");
    QTest::addColumn<int>("pair");
    QTest::addColumn<int>("query");
    QTest::addColumn<int>("key");
    QTest::newRow("split-half, head 6, pair 3")
        << AttentionPositions::Rope << 0 << 5 << 3 << 8 << 2;
    QTest::newRow("interleaved, head 1, pair 0")
        << AttentionPositions::RopeInterleaved << 0 << 0 << 0 << 3 << 0;
    QTest::newRow("split-half, offset 7, pair 31")
        << AttentionPositions::Rope << 7 << 7 << 31 << 9 << 4;
}

// The arrows are q_heads / q_rot and k_heads / k_rot of the pair's two numbers, read at the
// places worked out here by hand; the angles are position * theta^(-2j/d_k), and the numbers
// after are the numbers before turned by them.
void TestPipelineView::ropePanelReadsTheTracesNumbers()
{
    QFETCH(AttentionPositions, positions);
    QFETCH(int, offset);
    QFETCH(int, head);
    QFETCH(int, pair);
    QFETCH(int, query);
    QFETCH(int, key);
    const auto trace = variantTrace(8, 2, positions, offset);
    PipelineView view;
    view.setTrace(trace, 0);
    view.setStep(stepOf(*trace, "rotate"), false);
    QCOMPARE(view.sideTabs()->currentWidget(), static_cast<QWidget *>(view.ropePanel()));
    QVERIFY(view.sideTabs()->isTabVisible(view.sideTabs()->indexOf(view.ropePanel())));
    view.ropePanel()->pick(head, pair, query, key);
    const RopePair &p = view.ropePanel()->arrows()->pair();
    const bool interleaved = positions == AttentionPositions::RopeInterleaved;
    const int a = interleaved ? 2 * pair : pair, b = interleaved ? 2 * pair + 1 : pair + 32;
    const int kv = head / 4;
    auto at = [&](TraceKey k, int h, int row, int i) {
        return double(trace->tensor(k).at({0, h, row, i}));
    };
    QCOMPARE(p.qBefore,
             QPointF(at(keys::qHeads, head, query, a), at(keys::qHeads, head, query, b)));
    QCOMPARE(p.qAfter, QPointF(at(keys::qRot, head, query, a), at(keys::qRot, head, query, b)));
    QCOMPARE(p.kBefore, QPointF(at(keys::kHeads, kv, key, a), at(keys::kHeads, kv, key, b)));
    QCOMPARE(p.kAfter, QPointF(at(keys::kRot, kv, key, a), at(keys::kRot, kv, key, b)));
    const double frequency = std::pow(10000.0, -2.0 * pair / 64.0);
    HL_COMPARE_NEAR(p.qAngle, (offset + query) * frequency, 1e-12, 1e-12);
    HL_COMPARE_NEAR(p.kAngle, (offset + key) * frequency, 1e-12, 1e-12);
    const double c = std::cos(p.qAngle), s = std::sin(p.qAngle);
    HL_COMPARE_NEAR(p.qAfter.x(), p.qBefore.x() * c - p.qBefore.y() * s, 1e-5, 1e-5);
    HL_COMPARE_NEAR(p.qAfter.y(), p.qBefore.y() * c + p.qBefore.x() * s, 1e-5, 1e-5);
    const QString text = view.ropePanel()->numbersText();
    QVERIFY2(text.contains(QString("numbers %1 and %2").arg(a).arg(b)), qPrintable(text));
    QVERIFY2(text.contains(QString("m = %1").arg(offset + query)), qPrintable(text));
    // Tokens count from 1 (t_1 … t_n) in the pickers and the text; the angle's m from 0.
    const QString queryLabel =
        QString::fromStdString(Tokenizer::displayLabel(trace->input.queryLabel(0, query)));
    const QString keyLabel =
        QString::fromStdString(Tokenizer::displayLabel(trace->input.keyLabel(0, key)));
    const auto *queryPicker = view.ropePanel()->findChild<QComboBox *>("ropeQuery");
    const auto *keyPicker = view.ropePanel()->findChild<QComboBox *>("ropeKey");
    QCOMPARE(queryPicker->currentText(), QString("%1 “%2”").arg(query + 1).arg(queryLabel));
    QCOMPARE(keyPicker->currentText(), QString("%1 “%2”").arg(key + 1).arg(keyLabel));
    QVERIFY2(text.contains(QString("of token %1 “%2” at m = %3")
                               .arg(query + 1)
                               .arg(queryLabel)
                               .arg(offset + query)),
             qPrintable(text));
    QVERIFY2(text.contains(
                 QString("(%1, %2)").arg(p.qAfter.x(), 0, 'f', 3).arg(p.qAfter.y(), 0, 'f', 3)),
             qPrintable(text));
}

HEADLENS_TEST_MAIN(TestPipelineView)
#include "tst_pipelineview.moc"
