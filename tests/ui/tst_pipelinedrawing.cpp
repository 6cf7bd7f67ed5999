// tst_pipelinedrawing: the pipeline's per-head panels of scores and weights: the k-th panel on
// screen is titled "head k" and draws head k's slice of the trace, masked cells masked.
#include "drawnheatmap.h"
#include "pipelinecases.h"
#include "plotsonscreen.h"

#include "pipeline/galleryimages.h"
#include "pipeline/pipelineview.h"
#include "pipeline/tensorgallery.h"
#include "plot/colorrange.h"
#include "plotmetatypes.h"
#include "runner/viewworkpool.h"
#include "testmain.h"

#include <QTest>
#include <QThreadPool>

using namespace headlens;
using namespace headlens::test;

namespace {

/// The gallery max-pools a panel larger than this many cells a side (so n = 2048 stays fast).
constexpr int kPanelCells = 256;

// A causal text of `tokens` tokens: 300 is more than kPanelCells, so the panels are pooled in
// blocks of 2; 4 heads of 270 x 270 are more cells than the gallery makes on the UI thread
// (2^18), so they are sliced and pooled in ViewWorkPool and drawn when that job comes back.
PipelineCase longCase(int tokens, int heads)
{
    AttentionConfig config;
    config.seed = 3;
    config.dModel = 8;
    config.heads = heads;
    config.causal = true;
    std::string text;
    for (int i = 0; i < tokens; ++i)
        text += "w" + std::to_string(i % 37) + " ";
    AttentionInput input = InputBuilder::fromTexts(config, {text});
    PipelineCase c;
    c.weights = AttentionWeights::initialize(config, int(input.kvInputWidth()));
    c.trace = std::make_shared<const Trace>(computeTrace(config, std::move(input), c.weights));
    return c;
}

PipelineCase makeCase(const QString &name)
{
    if (name == "long")
        return longCase(300, 2);
    return name == "pooled" ? longCase(270, 4) : makePipelineCase(name);
}

// What head `head`'s panel of `tensor` should show for sequence `b`, read from the trace's
// tensors: the masked scores are the scores with every place the "mask" tensor marks left
// out (NaN), which says what masking means rather than repeating the masked_scores tensor.
RowMatrix expectedPanel(const Trace &t, TraceKey tensor, int b, int head)
{
    const TraceKey source = tensor == keys::maskedScores ? keys::scores : tensor;
    RowMatrix panel = t.tensor(source).matrix({b, head});
    if (tensor == keys::maskedScores) {
        const Tensor &mask = t.tensor(keys::mask);
        for (Eigen::Index i = 0; i < panel.rows(); ++i)
            for (Eigen::Index j = 0; j < panel.cols(); ++j)
                if (mask.at({b, i, j}) != 0.0f)
                    panel(i, j) = NAN;
    }
    return panel;
}

// The tensor a data row names by its file name ("masked_scores").
TraceKey tensorNamed(const QString &name)
{
    for (TraceKey key : {keys::scores, keys::maskedScores, keys::attentionWeights})
        if (name == key.name())
            return key;
    qFatal("no per-head tensor named %s in this test", qPrintable(name));
}

// The trace's tokens of sequence `b` as the axes read them; a padded place says "(pad)".
QStringList tokenLabels(const std::vector<std::vector<std::string>> &sequences, int b,
                        int64_t length)
{
    const std::vector<std::string> &tokens = sequences.at(size_t(b));
    QStringList labels;
    for (int64_t i = 0; i < length; ++i)
        labels << (i < int64_t(tokens.size()) ? QString::fromStdString(tokens[size_t(i)])
                                              : QString("(pad)"));
    return labels;
}

// Shows step `step` and waits for its panels.
bool showStep(PipelineView &view, int step)
{
    view.setStep(step, false);
    // A large tensor's panels come from ViewWorkPool: the job, then its delivery.
    const bool done = ViewWorkPool::instance()->waitForDone(20000);
    QCoreApplication::processEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    return done;
}

// Shows the first step that writes `tensor`, whose panels the gallery then draws.
bool showStepWriting(PipelineView &view, TraceKey tensor)
{
    const std::vector<TraceStep> &steps = view.trace()->steps;
    for (size_t i = 0; i < steps.size(); ++i)
        for (const TraceKey &key : steps[i].outputs)
            if (key == tensor)
                return showStep(view, int(i));
    return false;
}

// The panels in reading order, as a person counts them: left to right, then the next row.
struct Panel
{
    HeatmapPlot *plot;
    bool startsRow; ///< first of its row: names the rows
    bool inLastRow; ///< nothing below it: names the columns
};

std::vector<Panel> panelsInReadingOrder(QWidget *gallery)
{
    std::vector<Panel> panels;
    const auto rows = plotRowsOnScreen(gallery);
    for (size_t r = 0; r < rows.size(); ++r)
        for (size_t c = 0; c < rows[r].size(); ++c)
            panels.push_back({rows[r][c], c == 0, r + 1 == rows.size()});
    return panels;
}

QByteArray inPanel(int head, const QByteArray &mismatch)
{
    return "head " + QByteArray::number(head + 1) + ": " + mismatch;
}

} // namespace

class TestPipelineDrawing : public QObject
{
    Q_OBJECT

private slots:
    void everyStepShowsItsFirstOutput_data();
    void everyStepShowsItsFirstOutput();
    void eachPanelDrawsItsHead_data();
    void eachPanelDrawsItsHead();
    void panelsAreDrawnInTheirHeadsColours_data();
    void panelsAreDrawnInTheirHeadsColours();
};

void TestPipelineDrawing::everyStepShowsItsFirstOutput_data()
{
    addPipelineVariantCases();
}

// Each step, as the stepper reaches it, shows its first output (the tensor it makes), one panel
// per head (per K/V head for k and v of GQA), each panel the tensor's slice cell for cell. The
// Softmax step showing the Mask step's tensor passed while only the steps that write the scores
// and the weights were looked at.
void TestPipelineDrawing::everyStepShowsItsFirstOutput()
{
    QFETCH(QString, caseName);
    const PipelineCase c = makePipelineCase(caseName);
    const Trace &t = *c.trace;
    PipelineView view;
    view.resize(1600, 1000);
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.show();
    view.setTrace(c.trace, 0);
    for (int s = 0; s < int(t.steps.size()); ++s) {
        const TraceStep &step = t.steps[size_t(s)];
        const QByteArray where = QByteArray("step ") + QByteArray::number(s + 1) + " (" +
                                 QByteArray::fromStdString(step.id) + ")";
        QVERIFY2(!step.outputs.empty() && t.hasTensor(step.outputs.front()), where.constData());
        const TraceKey first = step.outputs.front();
        QVERIFY2(showStep(view, s), where.constData());
        QVERIFY2(view.gallery()->currentTensor() == QString::fromStdString(first.str()),
                 (where + " shows " + view.gallery()->currentTensor().toUtf8() + ", not " +
                  QByteArray::fromStdString(first.str()))
                     .constData());
        const std::vector<RowMatrix> slices = referenceSlices(t.tensor(first), 0);
        const auto panels = panelsInReadingOrder(view.gallery());
        QVERIFY2(panels.size() == slices.size(),
                 (where + ": " + QByteArray::number(qint64(panels.size())) + " panels, " +
                  QByteArray::number(qint64(slices.size())) + " slices")
                     .constData());
        for (size_t p = 0; p < slices.size(); ++p) {
            const QByteArray mismatch = cellsMismatch(drawnCells(*panels[p].plot),
                                                      referenceMaxPool(slices[p], kPanelCells));
            QVERIFY2(mismatch.isEmpty(),
                     (where + ", panel " + QByteArray::number(qint64(p) + 1) + " (" +
                      panels[p].plot->title().toUtf8() + " at " +
                      QByteArray::number(rectIn(view.gallery(), panels[p].plot).x()) + "," +
                      QByteArray::number(rectIn(view.gallery(), panels[p].plot).y()) +
                      "): " + mismatch)
                         .constData());
        }
    }
}

void TestPipelineDrawing::eachPanelDrawsItsHead_data()
{
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<QString>("tensor");
    // The settings: 8 heads, a padded second line, n != n_kv, causal, and a text long
    // enough to be pooled; each with the scores, the masked scores and the weights. And the
    // weights of a text whose panels are made off the UI thread (one row: they take the same
    // path as the others).
    for (const char *name : {"lesson", "batch-padding", "cross", "causal", "long"})
        for (const char *tensor : {"scores", "masked_scores", "weights"})
            QTest::addRow("%s, %s", name, tensor) << QString(name) << QString(tensor);
    QTest::addRow("pooled, weights") << QString("pooled") << QString("weights");
}

void TestPipelineDrawing::eachPanelDrawsItsHead()
{
    QFETCH(QString, caseName);
    QFETCH(QString, tensor);
    const PipelineCase c = makeCase(caseName);
    const Trace &t = *c.trace;
    const int b = int(t.batch()) - 1; // the padded line in "batch-padding"
    if (caseName == "pooled")         // more than the gallery makes at once: from ViewWorkPool
        QVERIFY(GalleryImages::cellsOf(t, tensorNamed(tensor)) > GalleryImages::kInlineCells);
    PipelineView view;
    view.resize(1600, 1000);
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.show();
    view.setTrace(c.trace, b);
    QVERIFY(showStepWriting(view, tensorNamed(tensor)));
    QCOMPARE(view.gallery()->currentTensor(), tensor);
    const QStringList queries = tokenLabels(t.input.tokens, b, t.queryLength());
    const QStringList keys = tokenLabels(
        t.input.isCrossAttention() ? t.input.kvTokens : t.input.tokens, b, t.keyLength());
    const auto panels = panelsInReadingOrder(view.gallery());
    QCOMPARE(int(panels.size()), t.heads());
    for (int h = 0; h < t.heads(); ++h) {
        const auto [plot, startsRow, inLastRow] = panels[size_t(h)];
        QCOMPARE(plot->title(), QString("head %1").arg(h + 1));
        QCOMPARE(plot->colLabels(), keys);
        QCOMPARE(plot->rowLabels(), queries);
        // The panels share their labels: the first of each row names the queries, the bottom
        // row the keys; the others give the room to cells.
        QCOMPARE(plot->rowLabelsShown(), startsRow);
        QCOMPARE(plot->columnLabelsShown(), inLastRow);
        const RowMatrix want =
            referenceMaxPool(expectedPanel(t, tensorNamed(tensor), b, h), kPanelCells);
        const QByteArray mismatch = cellsMismatch(drawnCells(*plot), want);
        QVERIFY2(mismatch.isEmpty(), inPanel(h, mismatch).constData());
    }
}

void TestPipelineDrawing::panelsAreDrawnInTheirHeadsColours_data()
{
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<QString>("tensor");
    QTest::addColumn<Colormap>("map");
    QTest::addColumn<ColorScaleMode>("scale");
    const auto shown = ColorScaleMode::Shown;
    QTest::newRow("causal, masked scores, viridis")
        << "causal"
        << "masked_scores" << Colormap::Viridis << shown;
    QTest::newRow("batch-padding, masked scores, magma")
        << "batch-padding"
        << "masked_scores" << Colormap::Magma << shown;
    QTest::newRow("lesson, weights, grayscale") << "lesson"
                                                << "weights" << Colormap::Grayscale << shown;
    QTest::newRow("lesson, weights, 0 to 1")
        << "lesson"
        << "weights" << Colormap::Viridis << ColorScaleMode::Full;
    QTest::newRow("causal, weights, per head")
        << "causal"
        << "weights" << Colormap::Viridis << ColorScaleMode::PerHead;
}

// All panels of a tensor share one colour scale, from the smallest to the largest unmasked
// value of any head, so heads can be compared. Attention weights follow the View menu's
// choice: by default 0 to the largest weight of any head, rounded up.
void TestPipelineDrawing::panelsAreDrawnInTheirHeadsColours()
{
    QFETCH(QString, caseName);
    QFETCH(QString, tensor);
    QFETCH(Colormap, map);
    QFETCH(ColorScaleMode, scale);
    const PipelineCase c = makeCase(caseName);
    const Trace &t = *c.trace;
    const int b = int(t.batch()) - 1;
    PipelineView view;
    view.resize(1600, 1000);
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.show();
    PlotStyle style;
    style.colormap = map;
    style.colorScale = scale;
    view.setPlotStyle(style);
    view.setTrace(c.trace, b);
    QVERIFY(showStepWriting(view, tensorNamed(tensor)));
    std::vector<RowMatrix> wanted;
    std::pair<double, double> range{INFINITY, -INFINITY};
    for (int h = 0; h < t.heads(); ++h) {
        wanted.push_back(expectedPanel(t, tensorNamed(tensor), b, h));
        const auto [lower, upper] = unmaskedRange(wanted.back());
        range = {std::min(range.first, lower), std::max(range.second, upper)};
    }
    double largest = 0.0;
    for (const RowMatrix &w : wanted)
        largest = std::max(largest, largestInformativeWeight(w));
    if (tensor == "weights" && scale == ColorScaleMode::Shown)
        range = {0.0, ColorRange::readableTop(largest)};
    if (tensor == "weights" && scale == ColorScaleMode::Full)
        range = {0.0, 1.0};
    const auto panels = panelsInReadingOrder(view.gallery());
    QCOMPARE(int(panels.size()), t.heads());
    for (int h = 0; h < t.heads(); ++h) {
        const bool own = tensor == "weights" && scale == ColorScaleMode::PerHead;
        const QByteArray mismatch = pictureMismatch(*panels[size_t(h)].plot, wanted[size_t(h)], map,
                                                    own ? unmaskedRange(wanted[size_t(h)]) : range);
        QVERIFY2(mismatch.isEmpty(), inPanel(h, mismatch).constData());
    }
}

HEADLENS_TEST_MAIN(TestPipelineDrawing)
#include "tst_pipelinedrawing.moc"
