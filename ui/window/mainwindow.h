// MainWindow: composes the controls dock, the token strip and the views, and wires them.
#pragma once

#include "attention/trace.h"
#include "plot/plotstyle.h"
#include "views/headspage.h"
#include "window/ablationwiring.h"
#include "window/pipelinewiring.h"

#include <QMainWindow>

#include <memory>

class QTabWidget;

namespace headlens {

class CompareView;
class ControlsDock;
class ControlsPanel;
class CostPanel;
class FigureCommands;
class FileCommands;
class LongTextPage;
class LongTextTab;
class MainActions;
class ModelController;
class ModelTabs;
class ModelWiring;
class PipelineView;
class PositionShiftRunner;
class Selection;
class LinesView;
class StatusBarReport;
class StyleCommands;
class TraceRunner;
class TrainPage;
class LanguageModelView;
class TrainView;
class Workspace;

/// Builds widgets and connects them; the work lives in Workspace, TraceRunner, the views, the
/// commands (FileCommands, StyleCommands, ...) and each feature's wiring (ModelWiring,
/// AblationWiring, PipelineWiring).
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

    Workspace *workspace() const { return m_workspace; }
    TraceRunner *runner() const { return m_runner; }
    /// RoPE's shift check for the pipeline's RoPE panel.
    PositionShiftRunner *shiftRunner() const { return m_pipelineWiring->shiftRunner(); }
    Selection *selection() const { return m_selection; }
    /// The Heads tab: the grid, the single head, the strip and the heads' scores.
    HeadsPage *headsPage() const { return m_heads; }
    /// The "Heads that matter" tab: head importance and the patching map.
    HeadsThatMatterView *headsThatMatter() const { return m_ablations->matter(); }
    void showHeadsThatMatter();
    PipelineView *pipeline() const { return m_pipeline; }
    LinesView *linesView() const { return m_lines; }
    /// Brings the "Pipeline" tab (the step-by-step view) to the front.
    void showPipeline();
    /// MHA, GQA and MQA compared (the "Cost" tab).
    void showCost();
    /// The training playground (the "Train" tab).
    TrainView *trainView() const { return m_train; }
    LanguageModelView *languageModelView() const;
    /// The Long text tab's page (shown while a tiled run is on screen).
    LongTextPage *longTextPage() const;
    void showTrain();
    /// The Train tab in its "Language model" mode.
    void showLanguageModel();
    /// Brings the "Model" tab to the front when a model has run (it is hidden otherwise).
    void showModelTab();
    void showLines();
    /// The Compare tab: text B beside the text, and A − B per head.
    CompareView *compareView() const { return m_compare; }
    void showCompare();
    /// The Corpus tab, when a model is open (it is hidden otherwise).
    void showCorpusTab();
    /// The Lens tab (logit lens, direct logit attribution), when a model has run.
    void showLensTab();
    /// The Atlas tab (every head's type), when a model has run.
    void showAtlasTab();
    /// The Flow tab (rollout, value-weighted attention), when a model has run.
    void showFlowTab();
    /// The Circuits tab (a head's QK and OV circuits), when a model has run.
    void showCircuitsTab();
    FileCommands *files() const { return m_files; }
    /// The Model box, the Model tab and the model commands.
    ModelWiring *models() const { return m_models; }

    /// Window geometry, dock layout and view options from QSettings; the last workspace's path.
    QString restoreSettings();
    /// What was on screen when the window last closed (saved or not); false when nothing was.
    bool restoreSession();
    void setPlotStyle(const PlotStyle &style);
    /// View > Dark on or off, as if chosen in the menu.
    void setDarkTheme(bool dark);
    /// View > Presentation mode on or off, as if chosen in the menu.
    void setPresentation(bool on);
    /// Starts computing the workspace as it is now.
    void recompute();

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildViews();
    void buildDock();
    void connectFigures();
    void buildModels();
    void buildAblations();
    void connectScores(ModelController *controller);
    void connectActions();
    void followTabs();
    void connectPipeline();
    void showTrace(std::shared_ptr<const Trace> trace);
    void showWarnings(const std::vector<std::string> &warnings);
    void redraw();
    void updateTitle();

    Workspace *m_workspace = nullptr;
    TraceRunner *m_runner = nullptr;
    PipelineWiring *m_pipelineWiring = nullptr;
    Selection *m_selection = nullptr;
    ControlsDock *m_dock = nullptr;
    ControlsPanel *m_controls = nullptr; ///< the dock's panel
    HeadsPage *m_heads = nullptr;
    LinesView *m_lines = nullptr;
    CompareView *m_compare = nullptr;
    AblationWiring *m_ablations = nullptr;
    QTabWidget *m_tabs = nullptr;
    PipelineView *m_pipeline = nullptr;
    CostPanel *m_cost = nullptr;
    TrainView *m_train = nullptr;
    TrainPage *m_trainPage = nullptr;
    MainActions *m_actions = nullptr;
    FileCommands *m_files = nullptr;
    FigureCommands *m_figures = nullptr;
    ModelWiring *m_models = nullptr;
    ModelTabs *m_modelTabs = nullptr;
    LongTextTab *m_longText = nullptr;
    StyleCommands *m_styles = nullptr;
    StatusBarReport *m_status = nullptr;
    std::shared_ptr<const Trace> m_trace;
};

} // namespace headlens
