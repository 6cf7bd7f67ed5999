// tst_corpuspanel: the Corpus tab runs a file through the open model off the UI thread and shows
// what runCorpus finds: the map's dots at the summary's places, the table's means and induction
// scores; Cancel keeps the previous map; a bad file is refused with the reason; clicking a dot
// opens that head; Export writes the files.
#include "corpus/corpusmapplot.h"
#include "corpus/corpuspanel.h"
#include "corpus/corpusrun.h"
#include "model/modelopener.h"
#include "models/modelcontroller.h"
#include "selection/selection.h"
#include "testmain.h"
#include "views/headstatsmodel.h"
#include "views/headstatstable.h"
#include "views/tracereader.h"
#include "window/filecommands.h"
#include "window/modelwiring.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

using namespace headlens;
using headlens::test::filesOf;
using headlens::test::modelsOf;
using headlens::test::selectionOf;
using headlens::test::shownTraceOf;
using headlens::test::waitUntilSettled;
using headlens::test::workspaceOf;

class TestCorpusPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void showsWhatRunCorpusFinds();
    void cancelKeepsThePreviousMap();
    void badFileSaysWhyAndKeepsTheMap();
    void clickingADotOpensItsHead();
    void exportWritesTheFiles();
    void theWindowShowsTheTabWithAModel();
    void meanAblationUsesTheCorpusMeans();

private:
    QString corpus(const QString &name, int lines) const;
    void runAndWait(CorpusPanel &panel, const QString &path);

    QTemporaryDir m_dir;
    std::shared_ptr<const OpenedModel> m_model;
    const QString m_folder = HEADLENS_TEST_DATA "/gpt2/tiny";
};

QString TestCorpusPanel::corpus(const QString &name, int lines) const
{
    const QString path = m_dir.filePath(name);
    std::ofstream out(path.toStdString());
    const char *texts[] = {"The cat sat on the mat.", "A dog barked at the cat.",
                           "When Mary and John went to the store, John gave a drink to Mary."};
    for (int i = 0; i < lines; ++i)
        out << texts[i % 3] << " " << i << "\n";
    return path;
}

void TestCorpusPanel::runAndWait(CorpusPanel &panel, const QString &path)
{
    panel.runFile(path);
    QVERIFY(panel.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isRunning(), 60000);
}

void TestCorpusPanel::initTestCase()
{
    QVERIFY(m_dir.isValid()); // the window's session goes here, not into the user's settings
    test::keepSettingsIn(m_dir.path());
    m_model = ModelOpener::open(m_folder.toStdString());
}

void TestCorpusPanel::showsWhatRunCorpusFinds()
{
    CorpusPanel panel;
    panel.resize(900, 600);
    panel.show();
    panel.setModel(m_model);
    const QString path = corpus("two-hundred.txt", 200);
    runAndWait(panel, path);
    QVERIFY2(panel.summary().has_value(), qPrintable(panel.status()->text()));
    QVERIFY2(panel.status()->text().contains("200 texts"), qPrintable(panel.status()->text()));

    const CorpusSummary expected = runCorpus(*m_model, path.toStdString(), {}, nullptr);
    const CorpusSummary &shown = *panel.summary();
    QCOMPARE(shown.texts, expected.texts);
    QCOMPARE(shown.inductionTokens, expected.inductionTokens);
    // The summary is runCorpus's for the file (the window's thread sums in another order).
    for (size_t i = 0; i < expected.stats.size(); ++i) {
        QCOMPARE_LE(std::abs(shown.stats[i].entropy - expected.stats[i].entropy), 1e-6);
        QCOMPARE_LE(std::abs(shown.induction[i] - expected.induction[i]), 1e-6);
    }
    QCOMPARE_LE((shown.distances - expected.distances).cwiseAbs().maxCoeff(), 1e-6);
    // The map: one graph per layer, with a dot where the summary places each of its heads
    // (QCPGraph keeps its points sorted by x, not by head).
    CorpusMapPlot *map = panel.map();
    QCOMPARE(map->graphCount(), shown.layers);
    for (int layer = 0; layer < shown.layers; ++layer) {
        QCOMPARE(map->graph(layer)->dataCount(), shown.heads);
        for (int head = 0; head < shown.heads; ++head) {
            const int index = shown.index(layer, head);
            bool found = false;
            for (int k = 0; k < shown.heads; ++k) {
                const auto point = map->graph(layer)->data()->at(k);
                found = found ||
                        (point->key == shown.map(index, 0) && point->value == shown.map(index, 1));
            }
            QVERIFY2(found,
                     qPrintable(QString("no dot for layer %1 head %2").arg(layer).arg(head)));
        }
    }
    // The table: a row per head with its induction score, sortable by the exact value.
    const QAbstractItemModel *table = panel.table()->model();
    QCOMPARE(table->rowCount(), expected.layers * expected.heads);
    QVERIFY(!panel.table()->isColumnHidden(HeadStatsModel::Induction));
    for (int row = 0; row < table->rowCount(); ++row) {
        const auto [layer, head] = panel.table()->headAt(row);
        const int index = expected.index(layer, head);
        const double induction =
            table->index(row, HeadStatsModel::Induction).data(HeadStatsModel::kSortRole).toDouble();
        const double entropy =
            table->index(row, HeadStatsModel::Entropy).data(HeadStatsModel::kSortRole).toDouble();
        QCOMPARE(induction, shown.induction[size_t(index)]);
        QCOMPARE(entropy, shown.stats[size_t(index)].entropy);
    }
}

void TestCorpusPanel::cancelKeepsThePreviousMap()
{
    CorpusPanel panel;
    panel.setModel(m_model);
    runAndWait(panel, corpus("small.txt", 3));
    QVERIFY(panel.summary());
    const int64_t before = panel.summary()->texts;
    // Long enough that Cancel comes half-way: 20,000 lines.
    panel.runFile(corpus("long.txt", 20000));
    QTRY_VERIFY_WITH_TIMEOUT(panel.progress()->value() > 0, 60000);
    QVERIFY(panel.isRunning());
    panel.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isRunning(), 20000);
    QVERIFY2(panel.status()->text().startsWith("Cancelled"), qPrintable(panel.status()->text()));
    QVERIFY(panel.summary());
    QCOMPARE(panel.summary()->texts, before);
    QCOMPARE(panel.map()->graphCount(), 2);
}

void TestCorpusPanel::badFileSaysWhyAndKeepsTheMap()
{
    CorpusPanel panel;
    panel.setModel(m_model);
    runAndWait(panel, corpus("good.txt", 3));
    const QString empty = m_dir.filePath("empty.txt");
    std::ofstream(empty.toStdString()) << "\n\n";
    runAndWait(panel, empty);
    QVERIFY2(panel.status()->text().contains("holds no text") &&
                 panel.status()->text().contains(empty),
             qPrintable(panel.status()->text()));
    QVERIFY(panel.summary());
    QCOMPARE(panel.summary()->texts, int64_t(3));
}

void TestCorpusPanel::clickingADotOpensItsHead()
{
    CorpusPanel panel;
    panel.resize(900, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setModel(m_model);
    runAndWait(panel, corpus("click.txt", 6));
    CorpusMapPlot *map = panel.map();
    map->replot(QCustomPlot::rpImmediateRefresh);
    QSignalSpy chosen(&panel, &CorpusPanel::headChosen);
    const CorpusSummary &summary = *panel.summary();
    const int index = summary.index(1, 0);
    const QPoint dot(int(std::lround(map->xAxis->coordToPixel(summary.map(index, 0)))),
                     int(std::lround(map->yAxis->coordToPixel(summary.map(index, 1)))));
    // Only when no other dot is nearer: the tiny model's four heads are far enough apart.
    QCOMPARE(map->headAt(dot), std::make_pair(1, 0));
    QTest::mouseClick(map, Qt::LeftButton, {}, dot);
    QCOMPARE(chosen.count(), 1);
    QCOMPARE(chosen.at(0).at(0).toInt(), 1);
    QCOMPARE(chosen.at(0).at(1).toInt(), 0);
    QVERIFY(map->hoverText(1, 0).startsWith("layer 1 · head 1"));
}

void TestCorpusPanel::exportWritesTheFiles()
{
    CorpusPanel panel;
    panel.resize(700, 500);
    panel.show();
    QVERIFY(!panel.exportTo(m_dir.path())); // nothing yet
    QVERIFY(panel.status()->text().contains("nothing to export"));
    panel.setModel(m_model);
    runAndWait(panel, corpus("export.txt", 4));
    const QString out = m_dir.filePath("export");
    QVERIFY(QDir().mkpath(out));
    QVERIFY2(panel.exportTo(out), qPrintable(panel.status()->text()));
    for (const char *name :
         {"corpus_heads.csv", "corpus_distances.npy", "corpus_map.npy", "corpus_map.png"})
        QVERIFY2(QFile::exists(out + "/" + name), name);
    QFile csv(out + "/corpus_heads.csv");
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(csv.readAll()).trimmed().split('\n').size(), 1 + 4);
}

void TestCorpusPanel::theWindowShowsTheTabWithAModel()
{
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    workspaceOf(window)->setText("The tired robot dropped the heavy gear");
    window.recompute();
    QVERIFY(waitUntilSettled(window));
    auto *tabs = window.findChild<QTabWidget *>("viewTabs");
    CorpusPanel *panel = modelsOf(window)->corpus();
    QVERIFY(!tabs->isTabVisible(tabs->indexOf(panel)));
    QVERIFY(filesOf(window)->openModel(m_folder));
    QTRY_VERIFY_WITH_TIMEOUT(modelsOf(window)->controller()->run(), 20000);
    QVERIFY(waitUntilSettled(window));
    QVERIFY(tabs->isTabVisible(tabs->indexOf(panel)));
    QCOMPARE(tabs->tabText(tabs->indexOf(panel)), QString("Corpus"));
    tabs->setCurrentWidget(panel);
    runAndWait(*panel, corpus("window.txt", 5));
    QVERIFY(panel->summary());
    QCOMPARE(panel->summary()->model, m_model->name());
    // A dot clicked in the tab opens the head in the Heads view.
    emit panel->headChosen(0, 1);
    QTRY_COMPARE(selectionOf(window)->pinnedHead(), 1);
}

// Once a corpus has run, a head mean-ablated from the window is replaced by its mean output over
// the corpus: the window's prediction is the model's run with those means, its head says so.
void TestCorpusPanel::meanAblationUsesTheCorpusMeans()
{
    const QString text = "The tired robot dropped the heavy gear";
    auto window = test::settledWindow(text);
    QVERIFY(window);
    QVERIFY(filesOf(*window)->openModel(m_folder));
    QTRY_VERIFY_WITH_TIMEOUT(modelsOf(*window)->controller()->run(), 20000);
    QVERIFY(waitUntilSettled(*window));
    const HeadIntervention mean{1, 0, InterventionKind::Mean, -1, -1};
    workspaceOf(*window)->setAblations({mean});
    QVERIFY(waitUntilSettled(*window));
    const Vector overText = modelsOf(*window)->controller()->run()->firstLogits;
    CorpusPanel *panel = modelsOf(*window)->corpus();
    runAndWait(*panel, corpus("means.txt", 6));
    QVERIFY(panel->summary());
    QTRY_VERIFY_WITH_TIMEOUT(
        !modelsOf(*window)->controller()->run()->interventions.meanSource.isEmpty(), 20000);
    QVERIFY(waitUntilSettled(*window));

    HeadInterventions expected;
    expected.items = {mean};
    expected.meanSource = panel->summary()->headOutputMeans;
    const Vector withCorpus =
        m_model->run(ModelInput(m_model->encode(text.toStdString())), 0, expected, {})->firstLogits;
    const Vector shown = modelsOf(*window)->controller()->run()->firstLogits;
    QCOMPARE(shown.size(), withCorpus.size());
    QCOMPARE_LE((shown - withCorpus).cwiseAbs().maxCoeff(), 1e-5f);
    QVERIFY((shown - overText).cwiseAbs().maxCoeff() > 1e-4f); // the corpus changed it
    workspaceOf(*window)->setModelLayer(1);
    QVERIFY(waitUntilSettled(*window));
    QVERIFY2(TraceReader::headChange(*shownTraceOf(*window), 0, 0).contains("corpus mean"),
             qPrintable(TraceReader::headChange(*shownTraceOf(*window), 0, 0)));
}

HEADLENS_TEST_MAIN(TestCorpusPanel)
#include "tst_corpuspanel.moc"
