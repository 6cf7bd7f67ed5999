// Tests that the pipeline view shows the trace's shapes at every step and steps with the keys.
#include "approx.h"
#include "pipelinecases.h"

#include "pipeline/cellarithmeticpanel.h"
#include "pipeline/outputprojectionpanel.h"
#include "pipeline/pipelineview.h"
#include "pipeline/shapediagram.h"
#include "pipeline/tensorgallery.h"
#include "selection/selection.h"

#include <QTest>

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
    void pickedCellShowsTheTracesWeight();
};

namespace {

QString shapeText(const Trace &t, const std::vector<TraceKey> &keys)
{
    return keys.empty() ? QString("text")
                        : QString::fromStdString(keys.front().str() + " " +
                                                 t.tensor(keys.front()).shape().toString());
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
    QVERIFY(view.cellPanel()->toPlainText().contains("head 3"));
}

QTEST_MAIN(TestPipelineView)
#include "tst_pipelineview.moc"
