// ScreenshotTaker: polls the runner (cheap) so every outcome — trace, problem, error — ends it.
#include "window/screenshottaker.h"

#include "compare/compareview.h"
#include "corpus/corpuspanel.h"
#include "interventions/datasetview.h"
#include "interventions/headimportanceview.h"
#include "interventions/headsthatmatterview.h"
#include "interventions/patchingmapview.h"
#include "lens/atlasview.h"
#include "lens/circuitsview.h"
#include "lens/flowview.h"
#include "lens/lensrunner.h"
#include "lens/lensview.h"
#include "longtext/longtextpage.h"
#include "longtext/tiledheadview.h"
#include "models/modelcontroller.h"
#include "pipeline/pipelineview.h"
#include "print/handoutwriter.h"
#include "runner/positionshiftrunner.h"
#include "runner/tracerunner.h"
#include "runner/viewworkpool.h"
#include "selection/selection.h"
#include "train/languagemodelview.h"
#include "train/trainview.h"
#include "util/inputerror.h"
#include "views/attentionlines.h"
#include "views/linesview.h"
#include "window/mainwindow.h"
#include "window/modelwiring.h"
#include "workspace/workspace.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QCheckBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTextStream>
#include <QThreadPool>

#include <algorithm>

namespace headlens {

ScreenshotTaker::ScreenshotTaker(MainWindow *window, QString path, QString view, int step)
    : QObject(window), m_window(window), m_path(std::move(path)), m_view(std::move(view)),
      m_step(step)
{
    if (m_view.startsWith("pipeline"))
        m_window->showPipeline();
    if (m_view == "train" || m_view == "train-live")
        m_window->showTrain();
    if (m_view == "train-lm")
        m_window->showLanguageModel();
    if (m_view == "cost")
        m_window->showCost();
    if (m_view == "lines")
        m_window->showLines();
    if (m_view.startsWith("head:"))
        m_window->selection()->setPinnedHead(m_view.mid(5).toInt());
    m_timer.setInterval(50);
    connect(&m_timer, &QTimer::timeout, this, &ScreenshotTaker::poll);
    m_timer.start();
}

void ScreenshotTaker::poll()
{
    m_waited += m_timer.interval();
    // A long text's run takes minutes (16 at 32,768 tokens of Qwen2.5-0.5B on 2 cores).
    const bool longText = m_view.startsWith("longtext") || m_view.startsWith("longband");
    const bool timedOut = m_waited > (longText ? 3600000 : 120000);
    const TrainView *train = m_window->trainView();
    const bool training =
        (m_view == "train" && train->isBusy()) ||
        (m_view == "train-lm" && m_window->languageModelView()->isBusy()) ||
        (m_view == "train-live" && train->isBusy() &&
         (!train->lastReport() || train->lastReport()->evaluation.step < kLiveSteps));
    if ((m_window->runner()->isBusy() || training) && !timedOut)
        return;
    if (m_view == "corpus" && !timedOut && !corpusDone())
        return;
    if (m_view == "dataset" && !timedOut && !datasetDone())
        return;
    // importance, patching: the trace first, then the ranking on it, then the picture.
    if ((m_view == "importance" || m_view == "patching") && !m_ranked && !timedOut) {
        m_ranked = true;
        m_window->showHeadsThatMatter();
        HeadsThatMatterView *matter = m_window->headsThatMatter();
        if (m_view == "importance") {
            matter->importance()->computeButton()->click();
        } else {
            matter->showPatching();
            if (!m_patching.cleanText.empty())
                matter->patching()->fill(m_patching, m_window->workspace()->state().text);
            else if (matter->patching()->exampleButton()->isEnabled())
                matter->patching()->exampleButton()->click();
            matter->patching()->computeButton()->click();
        }
        return;
    }
    // lens, atlas, flow, circuits: the tab shown (which starts its analysis), then the picture once
    // the analysis is in.
    const std::pair<const char *, std::pair<void (MainWindow::*)(), RunAnalysisView *>> analyses[] =
        {{"lens", {&MainWindow::showLensTab, m_window->models()->lens()}},
         {"atlas", {&MainWindow::showAtlasTab, m_window->models()->atlas()}},
         {"flow", {&MainWindow::showFlowTab, m_window->models()->flow()}},
         {"circuits", {&MainWindow::showCircuitsTab, m_window->models()->circuits()}}};
    for (const auto &[name, analysis] : analyses) {
        if (m_view != name || timedOut)
            continue;
        if (!m_ranked) {
            m_ranked = true;
            (m_window->*analysis.first)();
            return;
        }
        if (analysis.second->runner()->isRunning())
            return;
    }
    if (m_view == "compare" && !m_ranked && !timedOut) {
        m_ranked = true;
        m_window->showCompare();
        m_window->compareView()->setChange(m_comparison.change);
        m_window->compareView()->setTextB(QString::fromStdString(m_comparison.text));
        m_window->compareView()->findChild<QPushButton *>("compareButton")->click();
        return;
    }
    m_timer.stop();
    if (m_view == "corpus")
        m_window->showCorpusTab();
    if (m_view == "model")
        m_window->showModelTab();
    if (longText && m_view != "longtext") { // zoomed, or a band
        if (m_view.startsWith("longband"))
            m_window->longTextPage()->setBand(true);
        const int colon = m_view.indexOf(':');
        const QStringList zoom = colon < 0 ? QStringList() : m_view.mid(colon + 1).split(',');
        if (zoom.size() == 3)
            m_window->longTextPage()->head()->showRegion(zoom[0].toDouble(), zoom[1].toDouble(),
                                                         zoom[2].toDouble());
        // Let the page lay out; take() then waits for the region's picture (ViewWorkPool).
        QTimer::singleShot(150, this, &ScreenshotTaker::take);
        return;
    }
    if (m_view.startsWith("pipeline")) {
        startWalk();
        return;
    }
    if (m_view == "patching") // on a short screen the map and its bars are below the form
        QTimer::singleShot(100, m_window->headsThatMatter(),
                           &HeadsThatMatterView::scrollToPatchingMap);
    // Let the views lay out and replot with the new trace before grabbing.
    QTimer::singleShot(150, this, &ScreenshotTaker::take);
}

// As in a lesson, one step at a time, each laid out before the next: forward from the first
// step, or with pipeline-back from the last one back (where the heatmaps once collapsed).
void ScreenshotTaker::startWalk()
{
    const int count = m_window->pipeline()->stepCount();
    const int target = std::clamp(m_step, 1, std::max(count, 1)) - 1;
    m_walk.clear();
    if (m_view == "pipeline-back")
        for (int step = count - 1; step >= target; --step)
            m_walk.push_back(step);
    else
        for (int step = 0; step <= target; ++step)
            m_walk.push_back(step);
    walk();
}

void ScreenshotTaker::walk()
{
    if (!m_walk.empty()) {
        m_window->pipeline()->setStep(m_walk.front(), false);
        m_walk.erase(m_walk.begin());
        QTimer::singleShot(kWalkPauseMs, this, &ScreenshotTaker::walk);
        return;
    }
    if (m_view == "pipeline-side") // below the heatmaps on a narrow screen: scrolled to
        QTimer::singleShot(100, m_window->pipeline(), &PipelineView::scrollToSideTabs);
    QTimer::singleShot(150, this, &ScreenshotTaker::take);
}

bool ScreenshotTaker::corpusDone()
{
    CorpusPanel *corpus = m_window->models()->corpus();
    if (!m_corpusStarted && !m_corpus.isEmpty() && m_window->models()->controller()->run()) {
        corpus->runFile(m_corpus);
        m_corpusStarted = true;
    }
    return m_corpus.isEmpty() || (m_corpusStarted && !corpus->isRunning());
}

void ScreenshotTaker::setDataset(const QString &path, const QString &token, const QString &wrong,
                                 bool atlas)
{
    m_dataset = path;
    m_datasetAtlas = atlas;
    m_datasetToken = token;
    m_datasetWrong = wrong;
}

bool ScreenshotTaker::datasetDone()
{
    DatasetView *dataset = m_window->headsThatMatter()->dataset();
    if (!m_datasetStarted && !m_dataset.isEmpty() && m_window->models()->controller()->run()) {
        m_window->showHeadsThatMatter();
        m_window->headsThatMatter()->showDataset();
        dataset->tokenEdit()->setText(m_datasetToken);
        dataset->wrongEdit()->setText(m_datasetWrong);
        dataset->atlasBox()->setChecked(m_datasetAtlas);
        dataset->runFile(m_dataset);
        m_datasetStarted = true;
    }
    return m_dataset.isEmpty() || (m_datasetStarted && !dataset->isRunning());
}

void ScreenshotTaker::take()
{
    if (m_view == "handout") {
        writeHandout();
        return;
    }
    // The RoPE panel's shift check starts once the panel shows: the picture waits for it.
    if (m_window->shiftRunner()->isBusy() && m_waited < 120000) {
        m_waited += 50;
        QTimer::singleShot(50, this, &ScreenshotTaker::take);
        return;
    }
    // So does the Lines tab's picture of every line, made in the thread pool.
    AttentionLines *lines = m_window->linesView()->lines();
    if (lines->isVisible() && !lines->pictureReady() && m_waited < 120000) {
        lines->requestPicture();
        m_waited += 50;
        QTimer::singleShot(50, this, &ScreenshotTaker::take);
        return;
    }
    // And the pictures of a long text, made in ViewWorkPool (heads' images, the gallery's panels,
    // the Model tab's thumbnails): at 1,024 tokens the heads were grabbed before they came.
    if (ViewWorkPool::instance() && ViewWorkPool::instance()->activeThreadCount() > 0 &&
        m_waited < 120000) {
        m_waited += 50;
        QTimer::singleShot(50, this, &ScreenshotTaker::take);
        return;
    }
    // A job that just finished has posted its result (QFutureWatcher's call-out): drawn first.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::FutureCallOut);
    for (QCustomPlot *plot : m_window->findChildren<QCustomPlot *>())
        plot->replot(QCustomPlot::rpImmediateRefresh);
    const bool ok = m_window->grab().save(m_path);
    QTextStream(stderr) << (ok ? "wrote " : "cannot write ") << m_path << "\n";
    QApplication::exit(ok ? 0 : 1);
}

void ScreenshotTaker::writeHandout()
{
    const PipelineView *view = m_window->pipeline();
    if (!view->trace()) {
        QTextStream(stderr) << "cannot write " << m_path << ": there is no trace to print "
                            << "(check the text and the settings)\n";
        QApplication::exit(2);
        return;
    }
    try {
        HandoutWriter writer(view->trace(), view->analysis(), view->batch(), view->plotStyle());
        writer.setPage(m_page);
        const int pages = writer.write(m_path);
        QTextStream(stderr) << "wrote " << m_path << " (" << pages << " pages)\n";
        QApplication::exit(0);
    } catch (const InputError &error) {
        QTextStream(stderr) << "headlens: " << error.what() << "\n";
        QApplication::exit(2);
    }
}

} // namespace headlens
