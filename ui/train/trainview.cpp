// TrainView: one way through — form -> TrainingRunner (worker) -> reports -> curves and heatmaps.
#include "train/trainview.h"

#include "panels/columnscrollarea.h"
#include "panels/problembanner.h"
#include "plot/headcolors.h"
#include "train/curvecolors.h"
#include "train/curveplot.h"
#include "train/snapshotgrid.h"
#include "train/taskpattern.h"
#include "train/trainingrunner.h"
#include "train/trainmodelfiles.h"
#include "train/trainscoreboard.h"
#include "train/trainsettingsform.h"

#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

namespace headlens {

TrainView::TrainView(QWidget *parent) : QWidget(parent)
{
    setObjectName("trainView");
    m_runner = new TrainingRunner(this);
    m_files = new TrainModelFiles(this);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(buildControls());
    layout->addWidget(buildCharts(), 1);
    m_edits.setSingleShot(true);
    m_edits.setInterval(250);
    connect(&m_edits, &QTimer::timeout, this, &TrainView::applySettings);
    m_heatmapPace.setSingleShot(true);
    m_heatmapPace.setInterval(1000 / kHeatmapsPerSecond);
    connect(&m_heatmapPace, &QTimer::timeout, this, [this] {
        if (m_heatmapsBehind)
            refreshHeatmaps();
    });
    connect(m_form, &TrainSettingsForm::edited, this, [this] { m_edits.start(); });
    connectRunner();
    applySettings();
}

QWidget *TrainView::buildControls()
{
    auto *column = new QWidget;
    auto *layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 6, 0);
    m_form = new TrainSettingsForm(column);
    m_banner = new ProblemBanner(column);
    m_start = new QPushButton(tr("Start"), column);
    m_start->setObjectName("trainStart");
    m_pause = new QPushButton(tr("Pause"), column);
    m_pause->setObjectName("trainPause");
    m_reset = new QPushButton(tr("Reset"), column);
    m_reset->setObjectName("trainReset");
    m_reset->setToolTip(tr("Back to step 0 with the same initial weights"));
    m_save = new QPushButton(tr("Save model…"), column);
    m_save->setObjectName("trainSave");
    auto *open = new QPushButton(tr("Open model…"), column);
    m_openInViews = new QPushButton(tr("Open in Heads view"), column);
    m_openInViews->setObjectName("openInViews");
    m_openInViews->setToolTip(tr("Show this model's layers in the Heads and Pipeline views"));
    auto *buttons = new QGridLayout;
    buttons->addWidget(m_start, 0, 0);
    buttons->addWidget(m_pause, 0, 1);
    buttons->addWidget(m_reset, 0, 2);
    buttons->addWidget(m_save, 1, 0, 1, 2);
    buttons->addWidget(open, 1, 2);
    buttons->addWidget(m_openInViews, 2, 0, 1, 3);
    // Previous-token trains in a tenth of a second: at a few steps a second a class can watch
    // the diagonal appear. Not a setting of the run (it does not restart it).
    m_speed = new QSpinBox(column);
    m_speed->setObjectName("trainSpeed");
    m_speed->setRange(0, 200);
    m_speed->setSpecialValueText(tr("full speed"));
    m_speed->setSuffix(tr(" steps/s"));
    m_speed->setToolTip(tr("Watch speed: steps per second while training (full speed: as fast "
                           "as the computer goes)"));
    auto *pace = new QFormLayout;
    pace->addRow(tr("Speed"), m_speed);
    layout->addWidget(m_form);
    layout->addWidget(m_banner);
    layout->addLayout(pace);
    layout->addLayout(buttons);
    layout->addStretch(1);
    connect(m_speed, &QSpinBox::valueChanged, m_runner, &TrainingRunner::setStepsPerSecond);
    connect(m_start, &QPushButton::clicked, this, &TrainView::start);
    connect(m_pause, &QPushButton::clicked, this, &TrainView::pause);
    connect(m_reset, &QPushButton::clicked, this, &TrainView::reset);
    connect(m_save, &QPushButton::clicked, this, &TrainView::chooseAndSave);
    connect(open, &QPushButton::clicked, this, &TrainView::chooseAndOpen);
    connect(m_openInViews, &QPushButton::clicked, this, [this] {
        if (m_report)
            emit openInViews(m_report->model);
    });
    // As wide as the column's content at the current font: a fixed 290 px cut the task
    // description, Reset and Start in presentation mode.
    auto *scroll = new ColumnScrollArea(this);
    scroll->setWidget(column);
    return scroll;
}

QWidget *TrainView::buildCharts()
{
    auto *charts = new QWidget(this);
    auto *layout = new QVBoxLayout(charts);
    layout->setContentsMargins(0, 0, 0, 0);
    m_scoreboard = new TrainScoreboard(charts);
    m_loss = new CurvePlot(tr("Loss"), charts);
    m_accuracy = new CurvePlot(tr("Accuracy"), charts);
    m_accuracy->setFixedYRange(0.0, 1.0);
    m_accuracy->setPercentAxis(true);
    m_scores = new CurvePlot(QString(), charts);
    m_scores->setFixedYRange(0.0, 1.0);
    // Below the axes: no corner stays free of curves for a whole run (the flat loss of the
    // first steps ran under the legend at the top, scores end high or low).
    for (CurvePlot *plot : {m_loss, m_accuracy, m_scores})
        plot->setLegendBelow();
    for (CurvePlot *plot : {m_loss, m_accuracy}) {
        plot->addSeries(tr("training"), CurveColors::training(), Qt::SolidLine, 1.2);
        plot->addSeries(tr("held-out"), CurveColors::heldOut(), Qt::SolidLine, 2.0);
        plot->setLegendColumns(2);
    }
    auto *curves = new QWidget(charts);
    auto *row = new QHBoxLayout(curves);
    row->setContentsMargins(0, 0, 0, 0);
    // At least 210 px, and taller when a chart needs it (the scores' legend below its axes):
    // a minimum set on the widget would override its charts' own.
    row->addStrut(210);
    for (CurvePlot *plot : {m_loss, m_accuracy, m_scores})
        row->addWidget(plot, 1);
    m_heatmaps = new SnapshotGrid(charts);
    auto *splitter = new QSplitter(Qt::Vertical, charts);
    splitter->addWidget(curves);
    splitter->addWidget(m_heatmaps);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 5); // the heads are the point; the curves say when
    layout->addWidget(m_scoreboard);
    layout->addWidget(splitter, 1);
    return charts;
}

void TrainView::connectRunner()
{
    connect(m_runner, &TrainingRunner::stepped, this, &TrainView::showMetrics);
    connect(m_runner, &TrainingRunner::reported, this, &TrainView::showReport);
    connect(m_runner, &TrainingRunner::runningChanged, this, &TrainView::updateButtons);
    connect(m_runner, &TrainingRunner::failed, m_banner, &ProblemBanner::showMessage);
    connect(m_files, &TrainModelFiles::opened, this, &TrainView::openModel);
    connect(m_files, &TrainModelFiles::message, this, &TrainView::message);
}

// Settings that change the model start a new run at once (paused at step 0), so what is on
// screen always belongs to the settings in the form.
void TrainView::applySettings()
{
    m_edits.stop();
    const TrainingSettings settings = m_form->settings();
    if (auto problem = settings.validate()) {
        m_valid = false;
        m_banner->showMessage(QString::fromStdString(*problem));
        updateButtons();
        return;
    }
    m_valid = true;
    m_banner->clear();
    clearCurves(settings);
    m_runner->restart(settings);
    updateButtons();
}

void TrainView::start()
{
    if (m_edits.isActive())
        applySettings();
    if (auto problem = m_form->settings().validate()) {
        m_banner->showMessage(QString::fromStdString(*problem));
        return; // the message says what to change; nothing trains on settings that fail
    }
    if (!m_valid)
        applySettings();
    const int steps = m_form->steps();
    m_runner->trainUntil(m_steps < steps ? steps : m_steps + steps);
}

void TrainView::pause()
{
    m_runner->pause();
}

void TrainView::reset()
{
    applySettings(); // the same settings and seed: the same initial weights as before
}

void TrainView::train(const TrainingSettings &settings, int steps)
{
    m_form->setSettings(settings);
    m_form->setSteps(steps);
    applySettings();
    start();
}

void TrainView::openModel(std::shared_ptr<const TrainedModel> model)
{
    m_edits.stop();
    m_form->setSettings(model->settings);
    m_valid = true;
    m_banner->clear();
    clearCurves(model->settings);
    m_steps = model->steps;
    m_runner->load(*model);
    updateButtons();
}

void TrainView::chooseAndSave()
{
    // The file dialog runs its own event loop while training goes on: reports that arrive
    // meanwhile replace m_report, so the model of the click is held here until it is written.
    if (m_report)
        m_files->chooseAndSave(m_report->model);
}

void TrainView::chooseAndOpen()
{
    m_files->chooseAndOpen();
}

void TrainView::clearCurves(const TrainingSettings &settings)
{
    m_task = settings.task;
    m_steps = 0;
    m_report.reset();
    m_loss->clearPoints();
    m_accuracy->clearPoints();
    m_scores->clearSeries();
    m_headsPerLayer = settings.model.heads;
    const QString score = TaskPattern::scoreName(m_task);
    m_scores->setTitle(tr("%1 score per head").arg(score.left(1).toUpper() + score.mid(1)));
    for (int layer = 0; layer < settings.model.layers; ++layer) {
        for (int head = 0; head < settings.model.heads; ++head)
            m_scores->addSeries(tr("L%1 H%2").arg(layer).arg(head + 1),
                                HeadColors::color(head, m_dark),
                                layer == 0 ? Qt::SolidLine : Qt::DashLine, 1.8);
    }
    m_scores->setLegendColumns(std::min(settings.model.heads, 4));
    m_scoreboard->clear();
}

void TrainView::showMetrics(const TrainingMetrics &metrics)
{
    m_steps = metrics.step;
    m_loss->addPoint(0, double(metrics.step), metrics.loss);
    m_accuracy->addPoint(0, double(metrics.step), metrics.accuracy);
    m_scoreboard->setMetrics(metrics);
}

void TrainView::showReport(std::shared_ptr<const TrainingReport> report)
{
    m_report = std::move(report);
    const Evaluation &e = m_report->evaluation;
    m_steps = e.step;
    m_loss->addPoint(1, double(e.step), e.loss);
    m_accuracy->addPoint(1, double(e.step), e.accuracy);
    for (size_t i = 0; i < e.heads.size(); ++i)
        m_scores->addPoint(int(i), double(e.step), TaskPattern::score(m_task, e.heads[i]));
    m_heatmapsBehind = true;
    if (!m_heatmapPace.isActive())
        refreshHeatmaps();
    m_scoreboard->setReport(*m_report);
    updateButtons();
}

// The first report draws at once; later ones at most kHeatmapsPerSecond times a second, always
// ending on the newest, so fast training never floods the UI thread with replots.
void TrainView::refreshHeatmaps()
{
    m_heatmapsBehind = false;
    if (m_report)
        m_heatmaps->setSnapshot(m_report->snapshot, m_task);
    m_heatmapPace.start();
}

void TrainView::updateButtons()
{
    const bool running = m_runner->isRunning();
    m_start->setEnabled(m_valid && !running);
    m_start->setText(m_steps > 0 ? tr("Continue") : tr("Start"));
    m_pause->setEnabled(running);
    m_save->setEnabled(m_report != nullptr);
    m_openInViews->setEnabled(m_report != nullptr);
}

void TrainView::setStepsPerSecond(int rate)
{
    m_speed->setValue(rate);
}

bool TrainView::isBusy() const
{
    return m_runner->isBusy();
}

void TrainView::setPlotStyle(const PlotStyle &style)
{
    for (CurvePlot *plot : {m_loss, m_accuracy, m_scores})
        plot->setPlotStyle(style);
    m_heatmaps->setPlotStyle(style);
    m_dark = style.dark;
    for (int series = 0; series < m_scores->graphCount() && m_headsPerLayer > 0; ++series) {
        QPen pen = m_scores->graph(series)->pen();
        pen.setColor(HeadColors::color(series % m_headsPerLayer, m_dark));
        m_scores->graph(series)->setPen(pen);
    }
}

} // namespace headlens
