// MainWindow: composes the controls dock, the token strip and the views, and wires them.
#pragma once

#include "attention/trace.h"
#include "plot/plotstyle.h"

#include <QMainWindow>

#include <memory>

class QLabel;
class QProgressBar;
class QScrollArea;
class QTabWidget;

namespace headlens {

class AblationEffectBar;
class AblationMenu;
class CompareView;
class ControlsPanel;
class HeadsThatMatterView;
class RankingCommands;
class CostPanel;
class FigureCommands;
class FileCommands;
class HeadsGridView;
class MainActions;
class ModelWiring;
class PipelineView;
class PositionShiftRunner;
class Selection;
class LinesView;
class SingleHeadView;
class TokenStrip;
class TraceRunner;
class TrainView;
class Workspace;

/// Builds widgets and connects them; the work lives in Workspace, TraceRunner, the views and
/// FileCommands.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

    Workspace *workspace() const { return m_workspace; }
    TraceRunner *runner() const { return m_runner; }
    /// RoPE's shift check for the pipeline's RoPE panel.
    PositionShiftRunner *shiftRunner() const { return m_shiftRunner; }
    Selection *selection() const { return m_selection; }
    ControlsPanel *controls() const { return m_controls; }
    HeadsGridView *grid() const { return m_grid; }
    SingleHeadView *singleHead() const { return m_single; }
    TokenStrip *tokenStrip() const { return m_strip; }
    /// The heads' right-click menu (ablate, keep only, restore) of every heatmap.
    AblationMenu *ablationMenu() const { return m_ablationMenu; }
    /// What the ablated heads changed, over the heads; hidden while none is.
    AblationEffectBar *ablationEffect() const { return m_effect; }
    /// The "Heads that matter" tab: head importance and the patching map.
    HeadsThatMatterView *headsThatMatter() const { return m_matter; }
    void showHeadsThatMatter();
    PipelineView *pipeline() const { return m_pipeline; }
    LinesView *linesView() const { return m_lines; }
    /// Brings the "Pipeline" tab (the step-by-step view) to the front.
    void showPipeline();
    /// MHA, GQA and MQA compared (the "Cost" tab).
    CostPanel *costPanel() const { return m_cost; }
    void showCost();
    /// The training playground (the "Train" tab).
    TrainView *trainView() const { return m_train; }
    void showTrain();
    /// Brings the "Model" tab to the front when a model has run (it is hidden otherwise).
    void showModelTab();
    void showLines();
    /// The Compare tab: text B beside the text, and A − B per head.
    CompareView *compareView() const { return m_compare; }
    void showCompare();
    /// The Corpus tab, when a model is open (it is hidden otherwise).
    void showCorpusTab();
    FileCommands *files() const { return m_files; }
    /// The Model box, the Model tab and the model commands.
    ModelWiring *models() const { return m_models; }
    QTabWidget *tabs() const { return m_tabs; }
    std::shared_ptr<const Trace> trace() const { return m_trace; }
    /// The views' area (what "Export view" and --screenshot --view write).
    QWidget *viewArea() const { return m_viewArea; }

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
    void buildStatusBar();
    void connectFigures();
    void buildModels();
    void buildAblations();
    void showModelRun(bool shown);
    void connectActions();
    void hideDockOnTrainTab();
    void connectPipeline();
    void showTrace(std::shared_ptr<const Trace> trace);
    void showWarnings(const std::vector<std::string> &warnings);
    void redraw();
    void updateTitle();
    void showAbout();
    void showShortcuts();
    void changeStyle(const std::function<void(PlotStyle &)> &change);

    Workspace *m_workspace = nullptr;
    TraceRunner *m_runner = nullptr;
    PositionShiftRunner *m_shiftRunner = nullptr;
    Selection *m_selection = nullptr;
    ControlsPanel *m_controls = nullptr;
    HeadsGridView *m_grid = nullptr;
    SingleHeadView *m_single = nullptr;
    LinesView *m_lines = nullptr;
    CompareView *m_compare = nullptr;
    TokenStrip *m_strip = nullptr;
    AblationMenu *m_ablationMenu = nullptr;
    AblationEffectBar *m_effect = nullptr;
    HeadsThatMatterView *m_matter = nullptr;
    RankingCommands *m_rankings = nullptr;
    QWidget *m_viewArea = nullptr;
    QTabWidget *m_tabs = nullptr;
    PipelineView *m_pipeline = nullptr;
    CostPanel *m_cost = nullptr;
    TrainView *m_train = nullptr;
    QScrollArea *m_trainPage = nullptr; ///< the Train tab: m_train in a scroll area
    bool m_dockHiddenForTrain = false;  ///< the Train tab has its own settings column
    MainActions *m_actions = nullptr;
    FileCommands *m_files = nullptr;
    FigureCommands *m_figures = nullptr;
    ModelWiring *m_models = nullptr;
    QLabel *m_hover = nullptr;
    QLabel *m_info = nullptr;
    QProgressBar *m_progress = nullptr;
    std::shared_ptr<const Trace> m_trace;
    PlotStyle m_style;
    double m_zoom = 1.0;
};

} // namespace headlens
