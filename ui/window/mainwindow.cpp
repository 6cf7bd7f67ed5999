// MainWindow: one way through — controls -> Workspace -> TraceRunner -> Trace -> views.
#include "window/mainwindow.h"

#include "compare/compareview.h"
#include "cost/costpanel.h"
#include "interventions/ablationeffectbar.h"
#include "interventions/headsthatmatterview.h"
#include "longtext/longtextpage.h"
#include "models/modelbox.h"
#include "models/modelcontroller.h"
#include "models/modeloverview.h"
#include "panels/controlsdock.h"
#include "panels/controlspanel.h"
#include "panels/wheelguard.h"
#include "pipeline/pipelineview.h"
#include "runner/tracerunner.h"
#include "selection/selection.h"
#include "train/languagemodelview.h"
#include "train/trainpage.h"
#include "train/trainview.h"
#include "views/headspage.h"
#include "views/linesview.h"
#include "views/tokenstrip.h"
#include "window/ablationwiring.h"
#include "window/comparecommands.h"
#include "window/controlsdockpolicy.h"
#include "window/examplecommands.h"
#include "window/figurecommands.h"
#include "window/filecommands.h"
#include "window/filemenuwiring.h"
#include "window/helpdialogs.h"
#include "window/longtexttab.h"
#include "window/mainactions.h"
#include "window/modeltabs.h"
#include "window/modelwiring.h"
#include "window/pipelinetabactivation.h"
#include "window/pipelinewiring.h"
#include "window/runnerfeedback.h"
#include "window/statusbarreport.h"
#include "window/stylecommands.h"
#include "workspace/workspace.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QFileInfo>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

namespace headlens {

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle("HeadLens");
    setWindowIcon(QIcon(":/headlens.svg"));
    setAcceptDrops(true);
    // The wheel scrolls; it changes a setting only in the control a person is editing.
    qApp->installEventFilter(new WheelGuard(this));
    // The parts have object names: the tests and the bench find them as a screen reader would.
    m_workspace = new Workspace(this);
    m_workspace->setObjectName("workspace");
    m_runner = new TraceRunner(this);
    m_runner->setObjectName("traceRunner");
    m_selection = new Selection(this);
    m_selection->setObjectName("selection");
    m_files = new FileCommands(m_workspace, this);
    m_files->setObjectName("fileCommands");
    buildViews();
    buildDock();
    m_status = new StatusBarReport(statusBar());
    m_actions = new MainActions(this);
    m_actions->setControlsToggle(m_dock->toggleViewAction());
    connectActions();
    connectPipeline();
    buildModels();
    buildAblations();
    connectFigures();
    setPlotStyle(m_styles->style());
    resize(1400, 900);
}

void MainWindow::buildViews()
{
    m_heads = new HeadsPage(m_selection, this);
    // The heads at a glance, and the step-by-step walk through one layer.
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName("viewTabs");
    m_tabs->setDocumentMode(true);
    m_pipeline = new PipelineView(m_tabs);
    m_pipeline->setSelection(m_selection);
    m_tabs->addTab(m_heads, tr("Heads"));
    m_tabs->addTab(m_pipeline, tr("Pipeline"));
    m_cost = new CostPanel(m_tabs);
    m_tabs->addTab(m_cost, tr("Cost"));
    m_trainPage = new TrainPage(m_tabs);
    m_train = m_trainPage->view();
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
    m_models->setObjectName("modelWiring");
    m_controls->insertBox(m_models->box());
    m_modelTabs = new ModelTabs(m_tabs, m_models, m_heads);
    m_longText = new LongTextTab(m_tabs, m_runner);
    connect(m_runner, &TraceRunner::tiledRunReady, m_models->box(), &ModelBox::showTiledRun);
    connect(m_longText->page(), &LongTextPage::hoverTextChanged, m_status,
            &StatusBarReport::setHoverText);
    m_heads->insertBar(0, m_models->note());
    ModelController *controller = m_models->controller();
    connect(m_runner, &TraceRunner::modelRunReady, controller, &ModelController::setRun);
    connect(controller, &ModelController::runChanged, m_heads->strip(),
            [this](const std::shared_ptr<const ModelRun> &run) {
                m_heads->strip()->setSegments(run ? run->segments : std::vector<int>());
            });
    connect(controller, &ModelController::sourceChanged, this, &MainWindow::recompute);
    connectScores(controller);
    connect(m_models, &ModelWiring::headOpened, this,
            [this] { m_tabs->setCurrentWidget(m_heads); });
    connect(m_models, &ModelWiring::layerSettingsVisibleChanged, m_controls,
            &ControlsPanel::setLayerSettingsVisible);
    new FileMenuWiring(m_files, m_actions, m_models->box(), m_workspace,
                       [this] { return m_trace; });
    connect(m_actions->showModel, &QAction::triggered, this, &MainWindow::showModelTab);
    connect(m_actions->showCorpus, &QAction::triggered, this, &MainWindow::showCorpusTab);
    connect(m_actions->showLens, &QAction::triggered, this, &MainWindow::showLensTab);
    connect(m_actions->showAtlas, &QAction::triggered, this, &MainWindow::showAtlasTab);
    connect(m_actions->showFlow, &QAction::triggered, this, &MainWindow::showFlowTab);
    connect(m_actions->showCircuits, &QAction::triggered, this, &MainWindow::showCircuitsTab);
    // "Open in Heads view": the model just trained becomes what the heads and pipeline show.
    connect(m_train, &TrainView::openInViews, controller, &ModelController::openToyModel);
    connect(m_train, &TrainView::openInViews, this, [this] { m_tabs->setCurrentWidget(m_heads); });
    // A language model trained here opens from its saved folder, like any checkpoint.
    connect(m_trainPage->languageModel(), &LanguageModelView::openFolder, this,
            [this, controller](const QString &folder) {
                controller->openFolder(folder);
                m_tabs->setCurrentWidget(m_heads);
            });
    connect(m_trainPage->languageModel(), &LanguageModelView::message, statusBar(),
            [this](const QString &text) { statusBar()->showMessage(text, 8000); });
    new CompareCommands(m_runner, m_workspace, controller, m_compare, this);
    auto *examples = new ExampleCommands(m_workspace, controller, this);
    connect(m_actions, &MainActions::exampleChosen, examples, &ExampleCommands::apply);
    connect(examples, &ExampleCommands::message, statusBar(), &QStatusBar::showMessage);
    m_models->syncActive();
}

// The heads scored against a pattern: the page follows the text (a story's relations hold while
// it is unchanged) and the model's run; its Story button and the Language model view's "Open in
// views" put an annotated story in the text box.
void MainWindow::connectScores(ModelController *controller)
{
    m_heads->setText(m_workspace->state().text);
    connect(m_workspace, &Workspace::inputChanged, m_heads,
            [this] { m_heads->setText(m_workspace->state().text); });
    connect(controller, &ModelController::runChanged, m_heads, &HeadsPage::setRun);
    connect(m_heads, &HeadsPage::textWanted, m_workspace, &Workspace::setText);
    connect(m_heads, &HeadsPage::headChosen, this, [this, controller](int layer, int head) {
        if (controller->isActive())
            controller->openHead(layer, head);
        else
            m_selection->setPinnedHead(head);
    });
    connect(m_trainPage->languageModel(), &LanguageModelView::probeStory, this,
            [this](const StoryText &story) {
                m_heads->setStory(story);
                m_workspace->setText(QString::fromStdString(story.text));
            });
}

void MainWindow::buildAblations()
{
    m_ablations = new AblationWiring(
        m_workspace, m_runner, m_models, m_heads, [this] { return m_trace; }, this);
    connect(m_ablations, &AblationWiring::recomputeWanted, this, &MainWindow::recompute);
    m_heads->insertBar(2, m_ablations->effect());
    m_tabs->insertTab(m_tabs->indexOf(m_cost), m_ablations->matter(), tr("Heads that matter"));
}

void MainWindow::showHeadsThatMatter()
{
    m_tabs->setCurrentWidget(m_ablations->matter());
}

void MainWindow::showModelTab()
{
    m_modelTabs->showModel();
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
    m_modelTabs->showCorpus();
}

void MainWindow::showLensTab()
{
    m_modelTabs->showLens();
}

void MainWindow::showAtlasTab()
{
    m_modelTabs->showAtlas();
}

void MainWindow::showFlowTab()
{
    m_modelTabs->showFlow();
}

void MainWindow::showCircuitsTab()
{
    m_modelTabs->showCircuits();
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

void MainWindow::showLanguageModel()
{
    m_trainPage->modes()->setCurrentWidget(m_trainPage->languageModel());
    showTrain();
}

LongTextPage *MainWindow::longTextPage() const
{
    return m_longText->page();
}

LanguageModelView *MainWindow::languageModelView() const
{
    return m_trainPage->languageModel();
}

// The pipeline works only while its tab shows; the Train tab shows neither the dock nor the b/n/h
// summary of the traced layer, and presentation mode starts without the dock. The Long text tab
// draws a tiled run, which traces no layer: the summary there would describe the last text that
// was traced, not the one on screen.
void MainWindow::followTabs()
{
    auto *pipeline =
        new PipelineTabActivation(m_tabs, m_pipeline, m_runner, [this] { return bool(m_trace); });
    connect(pipeline, &PipelineTabActivation::recomputeWanted, this, &MainWindow::recompute);
    connect(m_tabs, &QTabWidget::currentChanged, m_status, [this] {
        QWidget *shown = m_tabs->currentWidget();
        const bool longText = m_longText && shown == m_longText->page();
        m_status->setSummaryVisible(shown != m_trainPage && !longText);
    });
    auto *dock = new ControlsDockPolicy(m_tabs, m_trainPage, m_dock, m_actions->presentation);
    connect(dock, &ControlsDockPolicy::message, m_status, &StatusBarReport::showMessage);
}

void MainWindow::buildDock()
{
    m_dock = new ControlsDock(m_workspace, this);
    m_controls = m_dock->controls();
    addDockWidget(Qt::LeftDockWidgetArea, m_dock);
    resizeDocks({m_dock}, {360}, Qt::Horizontal);
}

void MainWindow::connectActions()
{
    MainActions *a = m_actions;
    connect(a->showHeads, &QAction::triggered, this, [this] { m_tabs->setCurrentWidget(m_heads); });
    connect(a->showPipeline, &QAction::triggered, this, &MainWindow::showPipeline);
    connect(a->showTrain, &QAction::triggered, this, &MainWindow::showTrain);
    connect(a->showCost, &QAction::triggered, this, &MainWindow::showCost);
    connect(a->showLines, &QAction::triggered, this, &MainWindow::showLines);
    connect(a->showCompare, &QAction::triggered, this, &MainWindow::showCompare);
    followTabs();
    connect(a->saveTrainedModel, &QAction::triggered, m_train, &TrainView::chooseAndSave);
    connect(a->openTrainedModel, &QAction::triggered, m_train, [this] {
        showTrain();
        m_train->chooseAndOpen();
    });
    connect(m_train, &TrainView::message, m_status, &StatusBarReport::showMessage);
    connect(a->quit, &QAction::triggered, this, &QWidget::close);
    m_styles = new StyleCommands(a, m_controls, this);
    connect(m_styles, &StyleCommands::styleChanged, this, &MainWindow::setPlotStyle);
    connect(a->about, &QAction::triggered, this, [this] { HelpDialogs::about(this); });
    connect(a->shortcuts, &QAction::triggered, this, [this] { HelpDialogs::shortcuts(this); });
    connect(m_files, &FileCommands::message, m_status, &StatusBarReport::showMessage);
    connect(m_files, &FileCommands::workspacePathChanged, this, &MainWindow::updateTitle);
}

void MainWindow::connectPipeline()
{
    connect(m_workspace, &Workspace::inputChanged, this, &MainWindow::recompute);
    connect(m_workspace, &Workspace::batchIndexChanged, this, &MainWindow::redraw);
    connect(m_runner, &TraceRunner::traceReady, this, &MainWindow::showTrace);
    m_pipelineWiring = new PipelineWiring(m_runner, m_pipeline, m_actions, this);
    connect(m_pipelineWiring, &PipelineWiring::message, m_status, &StatusBarReport::showMessage);
    new RunnerFeedback(m_runner, m_controls, m_heads->grid(), [this] { return bool(m_trace); });
    connect(m_runner, &TraceRunner::progress, m_status, &StatusBarReport::setProgress);
    connect(m_runner, &TraceRunner::busyChanged, m_status, &StatusBarReport::setBusy);
    connect(m_heads, &HeadsPage::hoverTextChanged, m_status, &StatusBarReport::setHoverText);
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
// as far as it fits beside the b/n/h summary.
void MainWindow::showWarnings(const std::vector<std::string> &warnings)
{
    if (warnings.empty())
        return;
    QStringList sentences;
    for (const std::string &warning : warnings)
        sentences << QString::fromStdString(warning);
    m_controls->showMessage(sentences.join("\n"));
    m_status->showWarning(sentences.front());
}

void MainWindow::redraw()
{
    if (!m_trace)
        return;
    const int b = std::clamp(m_workspace->state().batchIndex, 0, int(m_trace->batch()) - 1);
    m_heads->setTrace(m_trace, b);
    m_lines->setTrace(m_trace, b);
    m_pipeline->setTrace(m_trace, b);
    m_cost->setTrace(m_trace, b);
    m_status->showSummary(*m_trace, b);
}

// File > Export view draws what the current tab shows, as a figure of a size it asks for.
void MainWindow::connectFigures()
{
    m_figures = new FigureCommands(m_pipeline, m_selection, m_models->controller(), this);
    m_figures->setAnalyses([this] { return m_models->figureAnalyses(); });
    connect(m_actions->exportView, &QAction::triggered, this, [this] {
        using Content = FigureRequest::Content;
        const QWidget *tab = m_tabs->currentWidget();
        if (tab == m_longText->page()) { // no matrices to lay out as a figure: the picture
            m_longText->page()->chooseAndSavePicture();
            return;
        }
        m_figures->chooseAndExport(tab == m_pipeline                ? Content::Step
                                   : tab == m_models->overview()    ? Content::Model
                                   : tab == m_models->atlas()       ? Content::Atlas
                                   : tab == m_models->lens()        ? Content::Lens
                                   : tab == m_models->flow()        ? Content::Rollout
                                   : tab == m_models->circuits()    ? Content::Circuits
                                   : m_selection->pinnedHead() >= 0 ? Content::Head
                                                                    : Content::Heads);
    });
    connect(m_figures, &FigureCommands::message, m_status, &StatusBarReport::showMessage);
}

void MainWindow::setPlotStyle(const PlotStyle &style)
{
    m_styles->setStyle(style);
    if (m_figures)
        m_figures->setPlotStyle(style);
    m_heads->setPlotStyle(style);
    m_lines->setPlotStyle(style);
    m_compare->setPlotStyle(style);
    m_pipeline->setPlotStyle(style);
    m_cost->setPlotStyle(style);
    m_train->setPlotStyle(style);
    m_trainPage->languageModel()->setPlotStyle(style);
    if (m_ablations)
        m_ablations->matter()->setPlotStyle(style);
    if (m_models)
        m_models->setPlotStyle(style);
    if (m_longText)
        m_longText->page()->setPlotStyle(style);
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
    m_styles->restore(settings);
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
    m_styles->store(settings);
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
