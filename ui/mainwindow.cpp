// MainWindow: one way through — controls -> Workspace -> TraceRunner -> Trace -> views.
#include "mainwindow.h"

#include "compare/comparecommands.h"
#include "compare/compareview.h"
#include "corpus/corpuspanel.h"
#include "cost/costpanel.h"
#include "interventions/ablationeffectbar.h"
#include "interventions/ablationmenu.h"
#include "interventions/ablationset.h"
#include "interventions/headsthatmatterview.h"
#include "interventions/rankingcommands.h"
#include "models/modelbox.h"
#include "models/modelcontroller.h"
#include "models/modelgridview.h"
#include "models/modeloverview.h"
#include "models/modelwiring.h"
#include "panels/controlspanel.h"
#include "pipeline/pipelinecommands.h"
#include "pipeline/pipelineview.h"
#include "pipeline/ropepanel.h"
#include "plot/colorrange.h"
#include "runner/positionshiftrunner.h"
#include "runner/tracerunner.h"
#include "selection/selection.h"
#include "train/trainview.h"
#include "views/headsgridview.h"
#include "views/linesview.h"
#include "views/singleheadview.h"
#include "views/tokenstrip.h"
#include "views/tracereader.h"
#include "window/appearance.h"
#include "window/examples.h"
#include "window/figurecommands.h"
#include "window/filecommands.h"
#include "window/helpdialogs.h"
#include "window/mainactions.h"
#include "workspace/workspace.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMimeData>
#include <QProgressBar>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace headlens {

namespace {

/// The status bar's own margins and the gaps between its widgets, in pixels, about.
constexpr int kStatusMargins = 40;

} // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle("HeadLens");
    setWindowIcon(QIcon(":/headlens.svg"));
    setAcceptDrops(true);
    m_workspace = new Workspace(this);
    m_runner = new TraceRunner(this);
    m_selection = new Selection(this);
    m_files = new FileCommands(m_workspace, this);
    buildViews();
    buildDock();
    buildStatusBar();
    m_actions = new MainActions(this);
    m_actions->setControlsToggle(findChild<QDockWidget *>("controlsDock")->toggleViewAction());
    connectActions();
    connectPipeline();
    buildModels();
    buildAblations();
    connectFigures();
    setPlotStyle(m_style);
    resize(1400, 900);
}

void MainWindow::buildViews()
{
    m_viewArea = new QWidget(this);
    auto *layout = new QVBoxLayout(m_viewArea);
    layout->setContentsMargins(6, 6, 6, 6);
    m_strip = new TokenStrip(m_viewArea);
    m_strip->setSelection(m_selection);
    auto *stripScroll = new QScrollArea(m_viewArea);
    stripScroll->setWidget(m_strip);
    stripScroll->setWidgetResizable(true);
    stripScroll->setFrameShape(QFrame::NoFrame);
    stripScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    stripScroll->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    stripScroll->setFixedHeight(m_strip->sizeHint().height() + 14);
    m_grid = new HeadsGridView(m_viewArea);
    m_grid->setSelection(m_selection);
    m_single = new SingleHeadView(m_viewArea);
    m_single->setSelection(m_selection);
    auto *splitter = new QSplitter(Qt::Horizontal, m_viewArea);
    splitter->setObjectName("viewSplitter");
    splitter->addWidget(m_grid);
    splitter->addWidget(m_single);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(stripScroll);
    layout->addWidget(splitter, 1);
    // The heads at a glance, and the step-by-step walk through one layer.
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName("viewTabs");
    m_tabs->setDocumentMode(true);
    m_pipeline = new PipelineView(m_tabs);
    m_pipeline->setSelection(m_selection);
    m_tabs->addTab(m_viewArea, tr("Heads"));
    m_tabs->addTab(m_pipeline, tr("Pipeline"));
    m_cost = new CostPanel(m_tabs);
    m_tabs->addTab(m_cost, tr("Cost"));
    // In a scroll area: a tab widget is as wide as its widest page's minimum, and the Train
    // view's (its settings column beside the big scores) set the whole window's minimum to
    // 1140 px. Scrolled, it leaves the window usable on a 1024 px projector.
    m_trainPage = new QScrollArea(m_tabs);
    m_trainPage->setWidgetResizable(true);
    m_trainPage->setFrameShape(QFrame::NoFrame);
    m_train = new TrainView(m_trainPage);
    m_trainPage->setWidget(m_train);
    m_tabs->addTab(m_trainPage, tr("Train"));
    // BertViz's picture of the same heads: lines from queries to keys.
    m_lines = new LinesView(m_tabs);
    m_lines->setSelection(m_selection);
    m_tabs->addTab(m_lines, tr("Lines"));
    m_compare = new CompareView(m_tabs);
    m_tabs->addTab(m_compare, tr("Compare"));
    setCentralWidget(m_tabs);
}

// The model widgets go into the controls, a "Model" tab and above the token strip; ModelWiring
// connects them to each other and says through signals what the window should show.
void MainWindow::buildModels()
{
    m_models = new ModelWiring(m_workspace, m_selection, this);
    m_controls->insertBox(m_models->box());
    m_tabs->addTab(m_models->overview(), tr("Model"));
    m_tabs->setTabVisible(m_tabs->indexOf(m_models->overview()), false);
    m_tabs->addTab(m_models->corpus(), tr("Corpus"));
    m_tabs->setTabVisible(m_tabs->indexOf(m_models->corpus()), false);
    qobject_cast<QVBoxLayout *>(m_viewArea->layout())->insertWidget(0, m_models->note());
    ModelController *controller = m_models->controller();
    connect(m_runner, &TraceRunner::modelRunReady, controller, &ModelController::setRun);
    connect(controller, &ModelController::runChanged, m_strip,
            [this](const std::shared_ptr<const ModelRun> &run) {
                m_strip->setSegments(run ? run->segments : std::vector<int>());
            });
    connect(controller, &ModelController::sourceChanged, this, &MainWindow::recompute);
    connect(m_models, &ModelWiring::runShown, this, &MainWindow::showModelRun);
    connect(m_models, &ModelWiring::headOpened, this,
            [this] { m_tabs->setCurrentWidget(m_viewArea); });
    connect(m_models, &ModelWiring::layerSettingsVisibleChanged, m_controls,
            &ControlsPanel::setLayerSettingsVisible);
    connect(m_models->box(), &ModelBox::openFolderRequested, m_files,
            &FileCommands::chooseAndOpenModelFolder);
    connect(m_models->box(), &ModelBox::openToyRequested, m_files,
            &FileCommands::chooseAndOpenToyModel);
    connect(m_actions->openModelFolder, &QAction::triggered, m_files,
            &FileCommands::chooseAndOpenModelFolder);
    connect(m_actions->openToyModel, &QAction::triggered, m_files,
            &FileCommands::chooseAndOpenToyModel);
    connect(m_actions->showModel, &QAction::triggered, this, &MainWindow::showModelTab);
    connect(m_actions->showCorpus, &QAction::triggered, this, &MainWindow::showCorpusTab);
    // "Open in Heads view": the model just trained becomes what the heads and pipeline show.
    connect(m_train, &TrainView::openInViews, controller, &ModelController::openToyModel);
    connect(m_train, &TrainView::openInViews, this,
            [this] { m_tabs->setCurrentWidget(m_viewArea); });
    new CompareCommands(m_runner, m_workspace, controller, m_compare, this);
    // A corpus's means replace the text's in mean ablations: the heads shown change with them.
    connect(m_models->corpus(), &CorpusPanel::meansChanged, this, [this](auto means, auto model) {
        m_runner->setMeanSource(means, std::move(model));
        if (AblationSet::hasMean(m_workspace->state().ablations))
            recompute();
    });
    m_models->syncActive();
}

// Every head's heatmap has the same right-click menu; the ablations it sets are workspace
// settings, so the runner recomputes every view, the bar says what changed.
void MainWindow::buildAblations()
{
    m_ablationMenu = new AblationMenu(m_workspace, this);
    connect(m_grid, &HeadsGridView::headMenuRequested, m_ablationMenu, &AblationMenu::popup);
    connect(m_single, &SingleHeadView::headMenuRequested, m_ablationMenu, &AblationMenu::popup);
    connect(m_models->overview()->grid(), &ModelGridView::headMenuRequested, m_ablationMenu,
            &AblationMenu::popup);
    // Another model's heads are not these: a model chosen anew starts unablated.
    connect(m_models->controller(), &ModelController::sourceChanged, m_workspace,
            [this] { m_workspace->setAblations({}); });
    m_effect = new AblationEffectBar(m_viewArea);
    qobject_cast<QVBoxLayout *>(m_viewArea->layout())->insertWidget(2, m_effect);
    connect(m_runner, &TraceRunner::effectReady, this,
            [this](std::shared_ptr<const AblationEffect> effect) {
                m_effect->setEffect(std::move(effect), m_trace, m_workspace->state().batchIndex);
            });
    connect(m_workspace, &Workspace::batchIndexChanged, m_effect,
            [this](int b) { m_effect->setEffect(m_effect->effect(), m_trace, b); });
    m_matter = new HeadsThatMatterView(m_tabs);
    m_tabs->insertTab(m_tabs->indexOf(m_cost), m_matter, tr("Heads that matter"));
    m_rankings = new RankingCommands(m_runner, m_workspace, m_models->controller(), m_matter, this);
}

void MainWindow::showHeadsThatMatter()
{
    m_tabs->setCurrentWidget(m_matter);
}

void MainWindow::showModelRun(bool shown)
{
    for (QWidget *page : {static_cast<QWidget *>(m_models->overview()),
                          static_cast<QWidget *>(m_models->corpus())}) {
        const int index = m_tabs->indexOf(page);
        if (!shown && m_tabs->currentIndex() == index)
            m_tabs->setCurrentWidget(m_viewArea);
        m_tabs->setTabVisible(index, shown);
    }
}

void MainWindow::showModelTab()
{
    if (m_tabs->isTabVisible(m_tabs->indexOf(m_models->overview())))
        m_tabs->setCurrentWidget(m_models->overview());
}

void MainWindow::showLines()
{
    m_tabs->setCurrentWidget(m_lines);
}

void MainWindow::showCompare()
{
    m_tabs->setCurrentWidget(m_compare);
}

void MainWindow::showCorpusTab()
{
    if (m_tabs->isTabVisible(m_tabs->indexOf(m_models->corpus())))
        m_tabs->setCurrentWidget(m_models->corpus());
}

void MainWindow::showPipeline()
{
    m_tabs->setCurrentWidget(m_pipeline);
    m_pipeline->setFocus();
}

void MainWindow::showCost()
{
    m_tabs->setCurrentWidget(m_cost);
}

void MainWindow::showTrain()
{
    m_tabs->setCurrentWidget(m_trainPage);
}

// The Controls dock sets up the Heads and Pipeline views; on the Train tab it only takes room
// from the heatmaps, so it steps aside there and comes back (if it was open) when leaving.
void MainWindow::hideDockOnTrainTab()
{
    auto *dock = findChild<QDockWidget *>("controlsDock");
    // The four-ways comparison is computed only while the Pipeline tab shows; opening the tab
    // asks for it once for what is on screen.
    m_runner->setComparisonWanted(m_tabs->currentWidget() == m_pipeline);
    m_pipeline->setActive(m_tabs->currentWidget() == m_pipeline);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        const bool pipeline = m_tabs->currentWidget() == m_pipeline;
        m_runner->setComparisonWanted(pipeline);
        m_pipeline->setActive(pipeline);
        const auto analysis = m_pipeline->analysis();
        if (pipeline && m_trace && (!analysis || !analysis->compared))
            recompute();
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this, dock] {
        // The b/n/h summary describes the traced layer, not the toy model the tab trains.
        m_info->setVisible(m_tabs->currentWidget() != m_trainPage);
        if (m_tabs->currentWidget() == m_trainPage && !dock->isHidden()) {
            m_dockHiddenForTrain = true;
            dock->hide();
        } else if (m_tabs->currentWidget() != m_trainPage && m_dockHiddenForTrain) {
            m_dockHiddenForTrain = false;
            dock->show();
        }
    });
}

void MainWindow::buildDock()
{
    auto *dock = new QDockWidget(tr("Controls"), this);
    dock->setObjectName("controlsDock");
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    m_controls = new ControlsPanel(m_workspace, dock);
    dock->setWidget(m_controls);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    resizeDocks({dock}, {360}, Qt::Horizontal);
}

void MainWindow::buildStatusBar()
{
    m_hover = new QLabel(this);
    m_info = new QLabel(this);
    m_info->setObjectName("traceSummary");
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(160);
    m_progress->setFormat(tr("computing %p%"));
    m_progress->hide();
    statusBar()->addWidget(m_hover, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_info);
}

void MainWindow::connectActions()
{
    MainActions *a = m_actions;
    connect(a->openWeights, &QAction::triggered, m_files, &FileCommands::chooseAndOpenWeights);
    connect(a->clearWeights, &QAction::triggered, m_workspace,
            [this] { m_workspace->setWeightsPath(QString()); });
    connect(a->openWorkspace, &QAction::triggered, m_files, &FileCommands::chooseAndOpenWorkspace);
    connect(a->saveWorkspace, &QAction::triggered, m_files, &FileCommands::save);
    connect(a->saveWorkspaceAs, &QAction::triggered, m_files,
            &FileCommands::chooseAndSaveWorkspace);
    connect(a->exportTensors, &QAction::triggered, this,
            [this] { m_files->chooseAndExportTensors(m_trace, m_workspace->state().batchIndex); });
    auto *pipelineFiles = new PipelineCommands(m_pipeline, this);
    connect(a->exportStep, &QAction::triggered, pipelineFiles,
            &PipelineCommands::chooseAndExportStep);
    connect(a->exportHandout, &QAction::triggered, pipelineFiles,
            &PipelineCommands::chooseAndWriteHandout);
    connect(pipelineFiles, &PipelineCommands::message, this,
            [this](const QString &text) { statusBar()->showMessage(text, 5000); });
    connect(a->showHeads, &QAction::triggered, this,
            [this] { m_tabs->setCurrentWidget(m_viewArea); });
    connect(a->showPipeline, &QAction::triggered, this, &MainWindow::showPipeline);
    connect(a->showTrain, &QAction::triggered, this, &MainWindow::showTrain);
    connect(a->showCost, &QAction::triggered, this, &MainWindow::showCost);
    connect(a->showLines, &QAction::triggered, this, &MainWindow::showLines);
    connect(a->showCompare, &QAction::triggered, this, &MainWindow::showCompare);
    hideDockOnTrainTab();
    connect(a->saveTrainedModel, &QAction::triggered, m_train, &TrainView::chooseAndSave);
    connect(a->openTrainedModel, &QAction::triggered, m_train, [this] {
        showTrain();
        m_train->chooseAndOpen();
    });
    connect(m_train, &TrainView::message, this,
            [this](const QString &text) { statusBar()->showMessage(text, 5000); });
    connect(a->quit, &QAction::triggered, this, &QWidget::close);
    // The examples are lessons for the built-in layer: on a toy model the lesson sentence
    // became letters of its vocabulary ("The" as "m h e"), so an example goes back to the layer.
    connect(a, &MainActions::exampleChosen, this, [this](const Example &example) {
        ModelController *models = m_models->controller();
        if (models->isActive()) {
            const QString name = models->modelName();
            models->useBuiltIn();
            statusBar()->showMessage(tr("The examples are for the built-in layer, shown again; "
                                        "the Model box's Show list brings back %1.")
                                         .arg(name),
                                     10000);
        }
        m_workspace->setState(example.appliedTo(m_workspace->state()));
    });
    connect(a, &MainActions::colormapChosen, this,
            [this](Colormap map) { changeStyle([map](PlotStyle &s) { s.colormap = map; }); });
    connect(a, &MainActions::colorScaleChosen, this, [this](ColorScaleMode mode) {
        changeStyle([mode](PlotStyle &s) { s.colorScale = mode; });
    });
    connect(a->dark, &QAction::toggled, this,
            [this](bool on) { changeStyle([on](PlotStyle &s) { s.dark = on; }); });
    connect(a->presentation, &QAction::toggled, this, [this] { changeStyle({}); });
    connect(a->zoomIn, &QAction::triggered, this, [this] {
        m_zoom = std::min(m_zoom * 1.15, 3.0);
        changeStyle({});
    });
    connect(a->zoomOut, &QAction::triggered, this, [this] {
        m_zoom = std::max(m_zoom / 1.15, 0.6);
        changeStyle({});
    });
    connect(a->zoomReset, &QAction::triggered, this, [this] {
        m_zoom = 1.0;
        changeStyle({});
    });
    connect(a->about, &QAction::triggered, this, [this] { HelpDialogs::about(this); });
    connect(a->shortcuts, &QAction::triggered, this, [this] { HelpDialogs::shortcuts(this); });
    connect(m_files, &FileCommands::message, this,
            [this](const QString &text) { statusBar()->showMessage(text, 5000); });
    connect(m_files, &FileCommands::workspacePathChanged, this, &MainWindow::updateTitle);
}

void MainWindow::connectPipeline()
{
    connect(m_workspace, &Workspace::inputChanged, this, &MainWindow::recompute);
    connect(m_workspace, &Workspace::batchIndexChanged, this, &MainWindow::redraw);
    connect(m_runner, &TraceRunner::traceReady, this, &MainWindow::showTrace);
    connect(m_runner, &TraceRunner::analysisReady, m_pipeline, &PipelineView::setAnalysis);
    // RoPE's shift check: a second forward pass, in the pool, while the RoPE panel is shown.
    m_shiftRunner = new PositionShiftRunner(this);
    RopePanel *rope = m_pipeline->ropePanel();
    connect(m_runner, &TraceRunner::analysisReady, m_shiftRunner,
            &PositionShiftRunner::setAnalysis);
    connect(rope, &RopePanel::shiftChanged, m_shiftRunner, &PositionShiftRunner::setShift);
    connect(rope, &RopePanel::shownChanged, m_shiftRunner, &PositionShiftRunner::setWanted);
    connect(m_shiftRunner, &PositionShiftRunner::checked, rope, &RopePanel::setShiftResult);
    // With a trace on screen the last valid view stays, marked stale with the reason; without
    // one, the grid must not go on saying "Computing attention…" after the computation was
    // refused.
    auto hintOrStale = [this](const QString &hint, const QString &reason) {
        if (m_trace)
            m_grid->setStale(reason);
        else
            m_grid->showHint(hint);
    };
    connect(m_runner, &TraceRunner::invalid, this,
            [this, hintOrStale](const ConfigProblem &problem) {
                m_controls->showProblem(problem);
                hintOrStale(tr("Fix the setting marked on the left to see the heads."),
                            QString::fromStdString(problem.message));
            });
    connect(m_runner, &TraceRunner::failed, this, [this, hintOrStale](const QString &message) {
        m_controls->showMessage(message);
        hintOrStale(tr("Nothing to show: the message on the left says what to change."), message);
    });
    connect(m_runner, &TraceRunner::emptyInput, this, [this] {
        m_controls->clearProblem();
        m_grid->showHint(tr("Type a sentence in the Text box on the left to see how each head "
                            "attends — for example:\n\n“%1”")
                             .arg(QString::fromUtf8(kLessonSentence)));
    });
    connect(m_runner, &TraceRunner::progress, m_progress, &QProgressBar::setValue);
    connect(m_runner, &TraceRunner::busyChanged, this, [this](bool busy) {
        m_progress->setValue(0);
        m_progress->setVisible(busy);
    });
    connect(m_grid, &HeadsGridView::hoverTextChanged, m_hover, &QLabel::setText);
    connect(m_single, &SingleHeadView::hoverTextChanged, m_hover, &QLabel::setText);
}

void MainWindow::recompute()
{
    m_runner->submit(m_workspace->state(), m_models->controller()->source());
}

void MainWindow::showTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    m_controls->clearProblem();
    redraw(); // the summary first: the warning takes the room beside it
    showWarnings(m_trace->warnings);
}

// Every sentence in full goes to the banner, which wraps; the status bar keeps the first one
// as far as it fits beside the b/n/h summary (at 1280 px the summary cut it after the tensor's
// name). Such a sentence starts with the file, the tensor and the counts: its end gives way.
void MainWindow::showWarnings(const std::vector<std::string> &warnings)
{
    if (warnings.empty())
        return;
    QStringList sentences;
    for (const std::string &warning : warnings)
        sentences << QString::fromStdString(warning);
    m_controls->showMessage(sentences.join("\n"));
    const int summary =
        m_info->sizeHint().width() + (m_progress->isVisible() ? m_progress->sizeHint().width() : 0);
    const int room = std::max(statusBar()->width() - summary - kStatusMargins, 120);
    statusBar()->showMessage(
        statusBar()->fontMetrics().elidedText(sentences.front(), Qt::ElideRight, room), 8000);
}

void MainWindow::redraw()
{
    if (!m_trace)
        return;
    const int b = std::clamp(m_workspace->state().batchIndex, 0, int(m_trace->batch()) - 1);
    m_grid->setTrace(m_trace, b);
    m_single->setTrace(m_trace, b);
    m_lines->setTrace(m_trace, b);
    m_pipeline->setTrace(m_trace, b);
    m_cost->setTrace(m_trace, b);
    m_strip->setTokens(TraceReader::queryLabels(*m_trace, b));
    const AttentionConfig &c = m_trace->config;
    m_info->setText(
        tr("b=%1 · n=%2 · n_kv=%3 · h=%4%5 · d_k=%6 · d_v=%7")
            .arg(m_trace->batch())
            .arg(m_trace->input.queryLengthOf(b))
            .arg(m_trace->input.keyLengthOf(b))
            .arg(c.heads)
            .arg(c.kvHeadCount() < c.heads ? tr(" · h_kv=%1").arg(c.kvHeadCount()) : QString())
            .arg(c.headDimK())
            .arg(c.headDimV()));
}

// File > Export view draws what the current tab shows, as a figure of a size it asks for.
void MainWindow::connectFigures()
{
    m_figures = new FigureCommands(m_pipeline, m_selection, m_models->controller(), this);
    connect(m_actions->exportView, &QAction::triggered, this, [this] {
        using Content = FigureRequest::Content;
        const QWidget *tab = m_tabs->currentWidget();
        m_figures->chooseAndExport(tab == m_pipeline                ? Content::Step
                                   : tab == m_models->overview()    ? Content::Model
                                   : m_selection->pinnedHead() >= 0 ? Content::Head
                                                                    : Content::Heads);
    });
    connect(m_figures, &FigureCommands::message, this,
            [this](const QString &text) { statusBar()->showMessage(text, 5000); });
}

void MainWindow::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    if (m_figures)
        m_figures->setPlotStyle(style);
    m_grid->setPlotStyle(style);
    m_single->setPlotStyle(style);
    m_lines->setPlotStyle(style);
    m_compare->setPlotStyle(style);
    m_pipeline->setPlotStyle(style);
    m_cost->setPlotStyle(style);
    m_train->setPlotStyle(style);
    m_strip->setPlotStyle(style);
    if (m_matter)
        m_matter->setPlotStyle(style);
    if (m_models)
        m_models->setPlotStyle(style);
    if (auto *scroll = qobject_cast<QScrollArea *>(m_strip->parentWidget()->parentWidget()))
        scroll->setFixedHeight(m_strip->sizeHint().height() + 14);
}

void MainWindow::changeStyle(const std::function<void(PlotStyle &)> &change)
{
    PlotStyle style = m_style;
    if (change)
        change(style);
    const double presentation = m_actions->presentation->isChecked() ? 1.6 : 1.0;
    style.fontScale = presentation * m_zoom;
    Appearance::apply(style.dark, presentation);
    // The Controls' style sheet (the red frame of a problem) kept the palette its widgets had
    // when the font last changed: set again, it polishes them in the theme now applied.
    const QString sheet = m_controls->styleSheet();
    m_controls->setStyleSheet(QString());
    m_controls->setStyleSheet(sheet);
    m_actions->setColormap(style.colormap);
    m_actions->setColorScale(style.colorScale);
    setPlotStyle(style);
}

void MainWindow::setDarkTheme(bool dark)
{
    m_actions->dark->setChecked(dark);
}

void MainWindow::setPresentation(bool on)
{
    m_actions->presentation->setChecked(on);
}

void MainWindow::updateTitle()
{
    const QString path = m_files->workspacePath();
    setWindowTitle(path.isEmpty() ? "HeadLens" : QFileInfo(path).fileName() + " — HeadLens");
}

QString MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    m_actions->dark->setChecked(settings.value("view/dark", false).toBool());
    const Colormap map = Colormaps::fromName(settings.value("view/colormap").toString());
    // Before the three-way choice, a checkbox stored "per head" as view/perHeadScale.
    const ColorScaleMode scale =
        settings.contains("view/colorScale")
            ? ColorRange::modeFromName(settings.value("view/colorScale").toString())
        : settings.value("view/perHeadScale", false).toBool() ? ColorScaleMode::PerHead
                                                              : ColorScaleMode::Shown;
    changeStyle([map, scale](PlotStyle &s) {
        s.colormap = map;
        s.colorScale = scale;
    });
    return settings.value("workspace/last").toString();
}

bool MainWindow::restoreSession()
{
    QSettings settings;
    return m_files->restoreSession(settings);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    settings.setValue("view/colorScale", ColorRange::modeName(m_style.colorScale));
    settings.remove("view/perHeadScale");
    settings.setValue("view/dark", m_style.dark);
    settings.setValue("view/colormap", Colormaps::name(m_style.colormap));
    m_files->storeSession(settings);
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            m_files->openAny(url.toLocalFile());
    }
}

} // namespace headlens
