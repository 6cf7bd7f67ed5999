// PipelineView: the step-by-step walk through multi-head attention, from tokens to the output.
#pragma once

#include "plot/plotstyle.h"
#include "runner/traceanalysis.h"

#include <QWidget>

#include <memory>

class QLabel;
class QScrollArea;
class QSplitter;
class QTabWidget;

namespace headlens {

class CellArithmeticPanel;
class FourWaysPanel;
class OutputProjectionPanel;
class RopePanel;
class Selection;
class ShapeDiagram;
class SplitConcatPanel;
class StepperBar;
class TensorGallery;

/// Passive: setTrace / setAnalysis / setSelection. Each step of the trace shows its title, the
/// shape before and after (text and animated blocks), the formula, the PyTorch line, one
/// sentence, its tensors as heatmaps, and beside them the panel that teaches it (split and
/// concat, one cell's arithmetic, the output projection, four ways, and RoPE's rotation when
/// the trace has one). Keys: Left/Right,
/// Home/End, Space plays.
class PipelineView : public QWidget
{
    Q_OBJECT
public:
    /// Shorter than this, the header drops its "before → after" line and shrinks its title.
    static constexpr int kCompactHeight = 800;
    explicit PipelineView(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace, int batch);
    void setAnalysis(std::shared_ptr<const TraceAnalysis> analysis);
    /// While inactive (its tab hidden) setTrace and setAnalysis only keep what they are given,
    /// and the panels catch up when it is active again: at n=2048 redrawing every panel took the
    /// UI thread 140 ms after each change, for a tab nobody was looking at. Active by default.
    void setActive(bool active);
    /// Redraws the panels for a trace or analysis kept while inactive (before a step export).
    void bringUpToDate();
    void setSelection(Selection *selection);
    void setPlotStyle(const PlotStyle &style);
    /// Shows step `index` (0-based, clamped); animate moves the shape blocks and split bar.
    void setStep(int index, bool animate = true);

    int step() const { return m_step; }
    int stepCount() const;
    std::shared_ptr<const Trace> trace() const { return m_trace; }
    std::shared_ptr<const TraceAnalysis> analysis() const { return m_analysis; }
    int batch() const { return m_batch; }
    const PlotStyle &plotStyle() const { return m_style; }
    /// "q (b=1, n=10, h*d_k=512)": what the header shows before and after the step.
    QString shapeBeforeText() const;
    QString shapeAfterText() const;
    ShapeDiagram *diagram() const { return m_diagram; }
    StepperBar *stepper() const { return m_stepper; }
    CellArithmeticPanel *cellPanel() const { return m_cell; }
    OutputProjectionPanel *outputPanel() const { return m_output; }
    TensorGallery *gallery() const { return m_gallery; }
    /// The RoPE side tab (shown only when the trace rotates q and k).
    RopePanel *ropePanel() const { return m_rope; }
    SplitConcatPanel *splitPanel() const { return m_split; }
    /// A cell was picked (clicked here or in the heads grid) since the view was made.
    bool cellPicked() const { return m_cellPicked; }
    QTabWidget *sideTabs() const { return m_side; }
    /// Scrolls down to the side tabs (below the heatmaps in a narrow view).
    void scrollToSideTabs();
    /// Qt::Vertical when the side tabs moved below the heatmaps (a narrow view).
    Qt::Orientation panelsOrientation() const;

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void applyTrace();
    void releasePanels();
    void applyAnalysis();
    void buildHeader(QWidget *content);
    void fitPanels();
    void reflow();
    void fitSideTabs();
    void watchSideTabPages();
    void scheduleSideTabFit();
    void fitHeader();
    void showStep(bool animate);
    void showSidePanel(const TraceStep &step, bool animate);
    void pickCell(int head, int query, int key);
    void applyFonts();

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const TraceAnalysis> m_analysis;
    bool m_active = true;
    bool m_traceStale = false;    ///< m_trace is newer than what the panels show
    bool m_analysisStale = false; ///< m_analysis is newer than what the panels show
    int m_batch = 0;
    int m_step = 0;
    bool m_cellPicked = false;
    bool m_sideTabFitPending = false; ///< a fit of the side tabs is queued
    PlotStyle m_style;
    StepperBar *m_stepper = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_shapes = nullptr;
    ShapeDiagram *m_diagram = nullptr;
    QLabel *m_formula = nullptr;
    QLabel *m_pytorch = nullptr;
    QLabel *m_sentence = nullptr;
    TensorGallery *m_gallery = nullptr;
    QTabWidget *m_side = nullptr;
    QScrollArea *m_scroll = nullptr;
    QSplitter *m_splitter = nullptr; ///< the heatmaps beside (or above) the side tabs

    SplitConcatPanel *m_split = nullptr;
    OutputProjectionPanel *m_output = nullptr;
    CellArithmeticPanel *m_cell = nullptr;
    FourWaysPanel *m_fourWays = nullptr;
    RopePanel *m_rope = nullptr;
};

} // namespace headlens
