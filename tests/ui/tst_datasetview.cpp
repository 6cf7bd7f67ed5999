// tst_datasetview: the Heads that matter tab's dataset page runs a file of prompts through the
// open model off the UI thread and draws runDatasetExperiment's means and spreads: each cell in
// the colour of its value, hover naming both; the prompts left out named by line; Cancel and a
// bad file keep the last result; Export writes the CLI's files; the window gives it its model.
#include "corpus/datasetexperiment.h"
#include "corpus/datasetfile.h"
#include "interventions/datasetview.h"
#include "interventions/headsthatmatterview.h"
#include "interventions/rankingheatmap.h"
#include "io/npyfile.h"
#include "model/modelopener.h"
#include "models/modelcontroller.h"
#include "plot/heatmapplot.h"
#include "runner/viewworkpool.h"
#include "selection/selection.h"
#include "window/filecommands.h"
#include "windowparts.h"
#include "windowsettled.h"

#include "drawnheatmap.h"
#include "folderfiles.h"
#include "testdata.h"
#include "testmain.h"

#include <QComboBox>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

using namespace headlens;

namespace {

const char *const kDatasetPair =
    R"({"clean": "Hello world, the cat sat", "corrupted": "Hello world, the cat on", "answer": " the", "wrong": " on"})";

/// The largest |a - b| of two tables of the same shape.
float largestGap(const RowMatrix &a, const RowMatrix &b)
{
    return (a - b).cwiseAbs().maxCoeff();
}

} // namespace

class TestDatasetView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void drawsEachHeadsMeanAndSpread();
    void pairsGiveThePatchingShare();
    void cancelKeepsTheLastResult();
    void anotherModelDropsTheRun();
    void badInputSaysWhyAndKeepsTheResult();
    void exportWritesTheCliFiles();
    void theWindowGivesItTheModel();

private:
    QString dataset(const QString &name, const QByteArray &contents);
    void runAndWait(DatasetView &view, const QString &path);

    QTemporaryDir m_dir;
    std::shared_ptr<const OpenedModel> m_model;
};

QString TestDatasetView::dataset(const QString &name, const QByteArray &contents)
{
    const QString path = m_dir.filePath(name);
    test::writeFile(path, contents);
    return path;
}

void TestDatasetView::runAndWait(DatasetView &view, const QString &path)
{
    view.runFile(path);
    QVERIFY(view.isRunning());
    QVERIFY(!view.runButton()->isEnabled()); // one run at a time
    QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), 60000);
}

void TestDatasetView::initTestCase()
{
    QVERIFY(m_dir.isValid());
    test::keepSettingsIn(m_dir.path());
    m_model = ModelOpener::open(test::tinyGpt2().toStdString());
}

void TestDatasetView::drawsEachHeadsMeanAndSpread()
{
    DatasetView view;
    view.resize(900, 700);
    view.setPlotStyle(PlotStyle());
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(!view.runButton()->isEnabled()); // no model yet
    view.setModel(m_model);
    QVERIFY(view.runButton()->isEnabled());
    // Line 3 is one token, which has no next token to lose: left out, named by its line.
    const QString path =
        dataset("texts.txt", "The cat sat on the mat\nA dog ran far away\na\nThe robot and "
                             "the cat sat on the mat\n");
    view.tokenEdit()->setText(" the");
    runAndWait(view, path);
    QVERIFY2(view.result().has_value(), qPrintable(view.heatmap()->status()));

    DatasetRequest request;
    request.dlaToken = " the";
    const DatasetResult expected =
        runDatasetExperiment(*m_model, DatasetFile::read(path.toStdString()), request, {});
    const DatasetResult &shown = *view.result();
    QCOMPARE(shown.lines, (std::vector<int64_t>{1, 2, 4}));
    QCOMPARE(shown.measures.size(), size_t(2));
    QCOMPARE(view.measureChoice()->count(), 2);
    QCOMPARE(view.measureChoice()->itemText(1), QString("dla"));
    for (size_t m = 0; m < 2; ++m) {
        QVERIFY(largestGap(shown.measures[m].mean, expected.measures[m].mean) < 1e-6f);
        QVERIFY(largestGap(shown.measures[m].spread, expected.measures[m].spread) < 1e-6f);
    }
    QVERIFY2(view.promptsText().startsWith("3 prompts measured; 1 left out:\nline 3: "),
             qPrintable(view.promptsText()));

    // Each cell in the colour of its value, on the map's range (0 kept inside it).
    HeatmapPlot *plot = view.heatmap()->plot();
    const auto expectDrawn = [&](const RowMatrix &values) {
        QCOMPARE(view.heatmap()->values(), values);
        const double lower = std::min(0.0, double(values.minCoeff()));
        const double upper = std::max(lower + 1e-9, double(values.maxCoeff()));
        const QByteArray mismatch =
            test::pictureMismatch(*plot, values, PlotStyle().colormap, {lower, upper});
        QVERIFY2(mismatch.isEmpty(), mismatch.constData());
    };
    expectDrawn(shown.measures[0].mean);
    QVERIFY2(view.heatmap()->title().contains("the mean loss increase with the head zero-ablated, "
                                              "over 3 prompts of texts.txt"),
             qPrintable(view.heatmap()->title()));
    view.showMeasure(1, true);
    expectDrawn(shown.measures[1].spread);
    QCOMPARE(view.statisticChoice()->currentIndex(), 1);
    QVERIFY(view.heatmap()->title().contains("the spread (standard deviation) of the direct logit "
                                             "attribution"));
    // Hover names the head, its mean and its spread.
    QCOMPARE(view.describeHead(1, 0), QString("layer 1 · head 1: dla %1 ± %2 over 3 prompts")
                                          .arg(double(shown.measures[1].mean(1, 0)), 0, 'f', 4)
                                          .arg(double(shown.measures[1].spread(1, 0)), 0, 'f', 4));
    // A cell clicked opens its head.
    QSignalSpy chosen(&view, &DatasetView::headChosen);
    emit view.heatmap()->headActivated(1, 1);
    QCOMPARE(chosen.count(), 1);
    QCOMPARE(chosen.at(0).at(0).toInt(), 1);
}

void TestDatasetView::pairsGiveThePatchingShare()
{
    DatasetView view;
    view.setModel(m_model);
    runAndWait(view, dataset("pairs.jsonl", QByteArray(kDatasetPair) + "\n" + kDatasetPair));
    QVERIFY2(view.result().has_value(), qPrintable(view.heatmap()->status()));
    const DatasetResult expected = runDatasetExperiment(
        *m_model, DatasetFile::read(m_dir.filePath("pairs.jsonl").toStdString()), {}, {});
    QCOMPARE(view.result()->measures.size(), size_t(1));
    QCOMPARE(view.measureChoice()->itemText(0), QString("patching"));
    QVERIFY(largestGap(view.heatmap()->values(), expected.measures[0].mean) < 1e-6f);
    // Two copies of one pair: no spread at all.
    QCOMPARE(view.result()->measures[0].spread.cwiseAbs().maxCoeff(), 0.0f);
}

void TestDatasetView::cancelKeepsTheLastResult()
{
    DatasetView view;
    view.setModel(m_model);
    runAndWait(view, dataset("small.txt", "The cat sat on the mat\nA dog ran far away\n"));
    QVERIFY(view.result());
    const RowMatrix before = view.heatmap()->values();
    QByteArray many;
    for (int i = 0; i < 3000; ++i)
        many += "The cat sat on the mat number " + QByteArray::number(i) + "\n";
    view.runFile(dataset("long.txt", many));
    auto *bar = view.heatmap()->findChild<QProgressBar *>();
    QTRY_VERIFY_WITH_TIMEOUT(bar->value() > 0, 60000);
    QVERIFY(view.isRunning());
    view.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), 20000);
    QVERIFY2(view.heatmap()->status().startsWith("Cancelled"),
             qPrintable(view.heatmap()->status()));
    QCOMPARE(view.result()->lines.size(), size_t(2));
    QCOMPARE(view.heatmap()->values(), before);
    QVERIFY(view.runButton()->isEnabled());
}

// A run for the model before says nothing once another model is open: no "Cancelled", no map.
void TestDatasetView::anotherModelDropsTheRun()
{
    DatasetView view;
    view.setModel(m_model);
    QByteArray many;
    for (int i = 0; i < 3000; ++i)
        many += "The cat sat on the mat number " + QByteArray::number(i) + "\n";
    view.runFile(dataset("long2.txt", many));
    auto *bar = view.heatmap()->findChild<QProgressBar *>();
    QTRY_VERIFY_WITH_TIMEOUT(bar->value() > 0, 60000);
    view.setModel(ModelOpener::open(test::tinyGpt2().toStdString())); // another one, reopened
    QVERIFY(!view.isRunning());
    QVERIFY(view.runButton()->isEnabled());
    // The worker stops at its next prompt; whatever it queued is let through, and dropped.
    QVERIFY(ViewWorkPool::instance()->waitForDone(20000));
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    QVERIFY2(view.heatmap()->status().isEmpty(), qPrintable(view.heatmap()->status()));
    QVERIFY(!view.result());
    QVERIFY(!view.isRunning());
}

void TestDatasetView::badInputSaysWhyAndKeepsTheResult()
{
    DatasetView view;
    view.setModel(m_model);
    runAndWait(view, dataset("good.txt", "The cat sat on the mat\n"));
    QVERIFY(view.result());
    // A text among pairs: the file and the line are named.
    const QString mixed = dataset("mixed.jsonl", QByteArray(kDatasetPair) + "\nnot a pair\n");
    runAndWait(view, mixed);
    QVERIFY2(view.heatmap()->status().contains(mixed) &&
                 view.heatmap()->status().contains("line 2"),
             qPrintable(view.heatmap()->status()));
    QCOMPARE(view.result()->lines, (std::vector<int64_t>{1}));
    // Attribution asked of patching pairs.
    view.tokenEdit()->setText(" the");
    runAndWait(view, dataset("pairs2.jsonl", kDatasetPair));
    QVERIFY2(view.heatmap()->status().contains("holds patching pairs"),
             qPrintable(view.heatmap()->status()));
    // A token no tokenizer piece spells: said before any prompt runs.
    view.tokenEdit()->setText("the cat");
    runAndWait(view, dataset("texts2.txt", "The cat sat on the mat\n"));
    QVERIFY2(view.heatmap()->status().contains("the cat"), qPrintable(view.heatmap()->status()));
    // "Against" without a token: said at once, nothing starts.
    view.tokenEdit()->clear();
    view.wrongEdit()->setText(" on");
    view.runFile(m_dir.filePath("good.txt"));
    QVERIFY(!view.isRunning());
    QVERIFY2(view.heatmap()->status().contains("needs a token"),
             qPrintable(view.heatmap()->status()));
    QCOMPARE(view.result()->lines, (std::vector<int64_t>{1}));
}

void TestDatasetView::exportWritesTheCliFiles()
{
    DatasetView view;
    QVERIFY(!view.exportTo(m_dir.path())); // nothing yet
    QVERIFY(view.heatmap()->status().contains("nothing to export"));
    view.setModel(m_model);
    runAndWait(view, dataset("export.txt", "The cat sat on the mat\nA dog ran far away\n"));
    QVERIFY(view.exportButton()->isEnabled());
    const QString out = m_dir.filePath("export");
    QVERIFY2(view.exportTo(out), qPrintable(view.heatmap()->status()));
    for (const char *name :
         {"dataset_prompts.csv", "dataset_importance.npy", "dataset_importance_mean.npy",
          "dataset_importance_mean.csv", "dataset_importance_spread.npy"})
        QVERIFY2(QFile::exists(out + "/" + name), name);
    const Tensor perPrompt = NpyFile::read((out + "/dataset_importance.npy").toStdString());
    QCOMPARE(perPrompt.shape().sizes(), (std::vector<int64_t>{2, 2, 2}));
    QCOMPARE(perPrompt.matrix({1}), view.result()->measures[0].perPrompt.matrix({1}));
    QCOMPARE(test::readFile(out + "/dataset_prompts.csv"), QByteArray("prompt,line\n0,1\n1,2\n"));
}

void TestDatasetView::theWindowGivesItTheModel()
{
    auto window = test::settledWindow("The tired robot dropped the heavy gear");
    QVERIFY(window);
    DatasetView *view = test::headsThatMatterOf(*window)->dataset();
    QVERIFY(!view->runButton()->isEnabled());
    QVERIFY(test::filesOf(*window)->openModel(test::tinyGpt2()));
    QTRY_VERIFY_WITH_TIMEOUT(test::modelsOf(*window)->controller()->run(), 20000);
    QVERIFY(test::waitUntilSettled(*window));
    QVERIFY(view->runButton()->isEnabled());
    test::headsThatMatterOf(*window)->showDataset();
    runAndWait(*view, dataset("window.txt", "The cat sat on the mat\n"));
    QVERIFY(view->result());
    // A head chosen on the map is pinned in the Heads view, and a head pinned anywhere is
    // outlined on the map (the layer on screen's).
    emit view->headChosen(0, 1);
    QTRY_COMPARE(test::selectionOf(*window)->pinnedHead(), 1);
    QTRY_COMPARE(view->heatmap()->plot()->highlighted(), QPoint(0, 1));
    test::selectionOf(*window)->setPinnedHead(0);
    QTRY_COMPARE(view->heatmap()->plot()->highlighted(), QPoint(0, 0));
    // Another model (the built-in layer): the old model's result is gone.
    test::modelsOf(*window)->controller()->useBuiltIn();
    QTRY_VERIFY_WITH_TIMEOUT(!test::modelsOf(*window)->controller()->run(), 20000);
    QVERIFY(!view->result());
    QVERIFY(!view->runButton()->isEnabled());
}

HEADLENS_TEST_MAIN(TestDatasetView)
#include "tst_datasetview.moc"
