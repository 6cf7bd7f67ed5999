// PipelineView: composes the stepper, header, shape diagram, tensor gallery and teaching panels.
#include "pipeline/pipelineview.h"

#include "panels/contentheight.h"
#include "panels/verticalscrollarea.h"
#include "pipeline/cellarithmeticpanel.h"
#include "pipeline/fourwayspanel.h"
#include "pipeline/ropepanel.h"
#include "pipeline/splitconcatpanel.h"
#include "pipeline/stepperbar.h"
#include "pipeline/tensorgallery.h"
#include "selection/selection.h"
#include "steps/outputprojectionpanel.h"
#include "steps/shapediagram.h"
#include "steps/steptext.h"

#include <QKeyEvent>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace headlens {

PipelineView::PipelineView(QWidget *parent) : QWidget(parent)
{
    setObjectName("pipelineView");
    setFocusPolicy(Qt::StrongFocus);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(6, 6, 6, 6);
    m_stepper = new StepperBar(this);
    outer->addWidget(m_stepper);
    // Below the stepper everything scrolls up and down, never sideways: in presentation mode
    // at 1280 x 720 the header and readable heatmaps are taller than the screen, and without
    // the scroll area they set the window's minimum height past it.
    m_scroll = new VerticalScrollArea(this);
    m_scroll->setObjectName("pipelineScroll");
    m_scroll->setFocusPolicy(Qt::NoFocus);
    auto *content = new QWidget(m_scroll);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    buildHeader(content);
    auto *split = new QSplitter(Qt::Horizontal, content);
    m_splitter = split;
    m_gallery = new TensorGallery(split);
    m_side = new QTabWidget(split);
    m_split = new SplitConcatPanel(m_side);
    m_cell = new CellArithmeticPanel(m_side);
    m_output = new OutputProjectionPanel(m_side);
    m_fourWays = new FourWaysPanel(m_side);
    m_side->addTab(m_split, tr("Split && concat"));
    m_side->addTab(m_cell, tr("One cell"));
    // Short names: with the RoPE tab, five fit side by side at 1280 x 720.
    m_side->addTab(m_output, tr("W_O"));
    m_side->setTabToolTip(m_side->indexOf(m_output),
                          tr("Output projection: W_O cut into its h blocks, each head's share"));
    m_side->addTab(m_fourWays, tr("Four ways"));
    m_rope = new RopePanel(m_side);
    m_side->addTab(m_rope, tr("RoPE"));
    m_side->setTabVisible(m_side->indexOf(m_rope), false);
    watchSideTabPages();
    split->addWidget(m_gallery);
    split->addWidget(m_side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    // Stretch factors share only the space left over after the size hints, and the side
    // panel's hint is wide: start from an even split (scaled to the real width).
    split->setSizes({1000, 1000});
    split->setChildrenCollapsible(false);
    layout->addWidget(split, 1);
    m_scroll->setWidget(content);
    outer->addWidget(m_scroll, 1);
    connect(m_stepper, &StepperBar::stepRequested, this, [this](int i) { setStep(i); });
    connect(m_gallery, &TensorGallery::cellClicked, this,
            [this](const QString &, int head, int row, int col) {
                if (m_trace && m_trace->keyLength() > 0 && col < m_trace->keyLength())
                    pickCell(head, row, col);
            });
}

void PipelineView::buildHeader(QWidget *content)
{
    m_title = new QLabel(content);
    m_shapes = new QLabel(content);
    m_diagram = new ShapeDiagram(content);
    m_formula = new QLabel(content);
    m_pytorch = new QLabel(content);
    m_sentence = new QLabel(content);
    for (QLabel *label : {m_title, m_shapes, m_formula, m_pytorch, m_sentence}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    auto *code = new QHBoxLayout;
    code->addWidget(m_formula, 1);
    code->addWidget(m_pytorch, 1);
    auto *layout = static_cast<QVBoxLayout *>(content->layout());
    layout->addWidget(m_title);
    layout->addWidget(m_shapes);
    layout->addWidget(m_diagram);
    layout->addLayout(code);
    layout->addWidget(m_sentence);
}

void PipelineView::setTrace(std::shared_ptr<const Trace> trace, int batch)
{
    m_trace = std::move(trace);
    m_batch = batch;
    m_traceStale = !m_active;
    if (m_active)
        applyTrace();
    else
        releasePanels();
}

// Hidden, the panels are brought up to date only when the tab is shown again (bringUpToDate).
// Until then they must not hold the trace they drew last, nor through it its whole run: with
// GPT-2 small at 1,024 tokens that was a third run alive, 1 GiB, while the next was computed.
void PipelineView::releasePanels()
{
    m_split->releaseTrace();
    m_cell->releaseTrace();
    m_output->releaseTrace();
    m_rope->releaseTrace();
    m_gallery->releaseTrace();
    if (m_analysis && m_analysis->trace != m_trace) {
        m_analysis.reset(); // the older trace's comparison
        m_fourWays->setAnalysis(nullptr);
    }
}

void PipelineView::applyTrace()
{
    m_traceStale = false;
    if (!m_trace)
        return;
    QStringList titles;
    for (const TraceStep &s : m_trace->steps)
        titles << QString::fromStdString(s.title);
    m_stepper->setSteps(titles);
    m_split->setTrace(m_trace, m_batch);
    m_cell->setTrace(m_trace, m_batch);
    m_output->setTrace(m_trace, m_batch);
    m_rope->setTrace(m_trace, m_batch);
    m_side->setTabVisible(m_side->indexOf(m_rope), m_trace->config.usesRope());
    if (m_analysis && m_analysis->trace != m_trace)
        m_fourWays->setHtml(tr("<p>Comparing the four ways…</p>"));
    m_step = std::clamp(m_step, 0, stepCount() - 1);
    showStep(false);
}

void PipelineView::setAnalysis(std::shared_ptr<const TraceAnalysis> analysis)
{
    m_analysis = std::move(analysis);
    m_analysisStale = !m_active;
    if (m_active)
        applyAnalysis();
}

void PipelineView::applyAnalysis()
{
    m_analysisStale = false;
    m_output->setAnalysis(m_analysis);
    m_fourWays->setAnalysis(m_analysis);
    fitSideTabs();
}

void PipelineView::setActive(bool active)
{
    m_active = active;
    if (active)
        bringUpToDate();
}

void PipelineView::bringUpToDate()
{
    if (m_traceStale)
        applyTrace();
    if (m_analysisStale)
        applyAnalysis();
}

void PipelineView::setSelection(Selection *selection)
{
    connect(selection, &Selection::cellPicked, this, &PipelineView::pickCell);
}

void PipelineView::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    m_gallery->setPlotStyle(style);
    m_output->setPlotStyle(style);
    m_diagram->setDark(style.dark);
    m_split->setDark(style.dark);
    m_cell->setDark(style.dark);
    m_rope->setDark(style.dark);
    applyFonts();
}

void PipelineView::applyFonts()
{
    const double s = m_style.fontScale;
    m_stepper->setFontScale(s);
    m_diagram->setFontScale(s);
    m_split->setFontScale(s);
    m_cell->setFontScale(s);
    m_fourWays->setFontScale(s);
    m_rope->setFontScale(s);
    fitHeader();
    QFont body = font();
    body.setPointSizeF(11.0 * s);
    m_shapes->setFont(body);
    m_sentence->setFont(body);
    QFont mono("monospace");
    mono.setStyleHint(QFont::TypeWriter);
    mono.setPointSizeF(10.5 * s);
    m_formula->setFont(mono);
    m_pytorch->setFont(mono);
    QFont tabs = font();
    tabs.setPointSizeF(10.0 * s);
    m_side->tabBar()->setFont(tabs);
    fitPanels();
}

// Both sides of the splitter have minimums that depend on the font alone, never on the step:
// the side tabs' minimum followed the widest panel (the W_O bar chart's legend at step 14), the
// splitter took that width from the heatmaps, which then had no minimum and shrank to 5 px, and
// the divider stayed there after stepping back. Panels wider than this wrap or scroll down.
void PipelineView::fitPanels()
{
    const double s = std::max(1.0, m_style.fontScale);
    m_gallery->setMinimumWidth(int(360 * s));
    m_side->setMinimumWidth(int(300 * s));
    reflow();
}

// On a short screen (1280 x 720 in presentation mode) the header took the whole first screen
// and no heatmap showed: the "before → after" line goes (the diagram below names both tensors
// with their sizes) and the title is smaller (the step list above names the step too).
void PipelineView::fitHeader()
{
    const bool compact = height() > 0 && height() < kCompactHeight;
    m_shapes->setVisible(!compact);
    m_diagram->setCompact(compact);
    QFont title = font();
    title.setPointSizeF((compact ? 13.0 : 16.0) * m_style.fontScale);
    title.setBold(true);
    m_title->setFont(title);
}

// Side by side while both keep their minimum; below the heatmaps when the view is narrower
// (presentation mode beside the Controls dock at 1280 px).
void PipelineView::reflow()
{
    fitHeader();
    const int needed = m_gallery->minimumWidth() + m_side->minimumWidth() +
                       m_splitter->handleWidth() +
                       m_scroll->verticalScrollBar()->sizeHint().width() + 16;
    // A short view (a 1280x720 projector) puts them below too: the heatmaps, as wide as the
    // page, then take fewer rows, and the diagram and the heatmaps are seen together.
    const bool shortView = height() > 0 && height() < kCompactHeight;
    const Qt::Orientation wanted = width() >= needed && !shortView ? Qt::Horizontal : Qt::Vertical;
    if (m_splitter->orientation() != wanted) {
        m_splitter->setOrientation(wanted);
        m_splitter->setSizes({1000, wanted == Qt::Horizontal ? 1000 : 700});
    }
    fitSideTabs();
}

// Below the heatmaps the side tabs are as tall as the page in front needs, so that only the
// pipeline scrolls: at 1280 x 720 the W_O tab was 530 px high for 830 px of bars and W_O, and
// reading it took two scrolls, the page's and then the tab's. Beside the heatmaps they keep
// the height of the row.
void PipelineView::fitSideTabs()
{
    int height = int(330 * std::max(1.0, m_style.fontScale));
    QWidget *page = m_side->currentWidget();
    if (m_splitter->orientation() == Qt::Vertical && page) {
        // The tab bar and frame as laid out; before the first layout, the bar and a frame.
        const bool laidOut = page->height() > 0 && page->height() < m_side->height();
        const int chrome =
            laidOut ? m_side->height() - page->height() : m_side->tabBar()->sizeHint().height() + 8;
        const int width = page->width() > 0 ? page->width() : m_side->width() - 8;
        height = std::max(height, ContentHeight::of(page, width) + chrome + 2);
    }
    m_side->setMinimumHeight(height);
}

// A page's content can change its height after the step that showed it: the W_O tab's bars
// and colour bar take their size when the analysis arrives, which on a loaded machine came
// after the step's fit, and W_O then scrolled inside the page. A page (or the content of its
// scroll area) that lays itself out again or changes width is fitted again.
void PipelineView::watchSideTabPages()
{
    for (int i = 0; i < m_side->count(); ++i) {
        QWidget *page = m_side->widget(i);
        page->installEventFilter(this);
        const auto *scroll =
            page->findChild<const QScrollArea *>(QString(), Qt::FindDirectChildrenOnly);
        if (scroll && scroll->widget())
            scroll->widget()->installEventFilter(this);
    }
}

bool PipelineView::eventFilter(QObject *watched, QEvent *event)
{
    const bool relaid = event->type() == QEvent::LayoutRequest || event->type() == QEvent::Resize;
    const QWidget *page = m_side->currentWidget();
    const auto *widget = qobject_cast<const QWidget *>(watched);
    if (relaid && page && widget && (widget == page || page->isAncestorOf(widget)))
        scheduleSideTabFit();
    return QWidget::eventFilter(watched, event);
}

// Coalesced: a page's layout sends several requests in a row, one fit after them is enough.
void PipelineView::scheduleSideTabFit()
{
    if (m_sideTabFitPending)
        return;
    m_sideTabFitPending = true;
    QTimer::singleShot(0, this, [this] {
        m_sideTabFitPending = false;
        fitSideTabs();
    });
}

void PipelineView::scrollToSideTabs()
{
    // The tab bar at the top: ensureWidgetVisible showed the middle of a tab taller than the view.
    m_scroll->verticalScrollBar()->setValue(m_side->mapTo(m_scroll->widget(), QPoint(0, 0)).y());
}

Qt::Orientation PipelineView::panelsOrientation() const
{
    return m_splitter->orientation();
}

void PipelineView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    reflow();
}

int PipelineView::stepCount() const
{
    return m_trace ? int(m_trace->steps.size()) : 0;
}

void PipelineView::setStep(int index, bool animate)
{
    bringUpToDate(); // the panels must show the trace the step is taken from
    if (!m_trace || stepCount() == 0)
        return;
    const int step = std::clamp(index, 0, stepCount() - 1);
    const bool moved = step != m_step;
    m_step = step;
    showStep(animate);
    // A new step starts at its top, the shapes and the diagram: scrolled down to the last
    // step's heatmaps, a class saw the next step's heatmaps under the old step's place.
    if (moved)
        m_scroll->verticalScrollBar()->setValue(0);
}

QString PipelineView::shapeBeforeText() const
{
    return m_trace && m_step < stepCount()
               ? StepText::shape(*m_trace, m_trace->steps[size_t(m_step)].inputs)
               : QString();
}

QString PipelineView::shapeAfterText() const
{
    return m_trace && m_step < stepCount()
               ? StepText::shape(*m_trace, m_trace->steps[size_t(m_step)].outputs)
               : QString();
}

void PipelineView::showStep(bool animate)
{
    if (stepCount() == 0)
        return;
    const TraceStep &step = m_trace->steps[size_t(m_step)];
    m_stepper->setCurrent(m_step);
    m_title->setText(StepText::title(*m_trace, m_step));
    m_shapes->setText(StepText::shapes(*m_trace, step));
    m_diagram->setStep(*m_trace, step, animate);
    m_formula->setText(
        tr("<b>Formula</b>  %1").arg(QString::fromStdString(step.formula).toHtmlEscaped()));
    m_pytorch->setText(
        tr("<b>PyTorch</b>  %1").arg(QString::fromStdString(step.pytorch).toHtmlEscaped()));
    m_sentence->setText(QString::fromStdString(step.explanation));
    m_gallery->setStep(m_trace, m_batch, step);
    showSidePanel(step, animate);
}

// The panel that teaches this step comes to the front.
void PipelineView::showSidePanel(const TraceStep &step, bool animate)
{
    using Mode = SplitBarWidget::Mode;
    switch (step.kind) {
    case StepKind::Tokens:
    case StepKind::Embed:
    case StepKind::Project:
        m_split->present(Mode::Split, 0.0, false);
        m_side->setCurrentWidget(m_split);
        break;
    case StepKind::Split:
    case StepKind::Transpose:
        m_split->present(Mode::Split, 1.0, animate);
        m_side->setCurrentWidget(m_split);
        break;
    case StepKind::Rotate:
        m_side->setCurrentWidget(m_rope);
        break;
    case StepKind::RepeatKv:
        m_split->presentRepeat();
        m_side->setCurrentWidget(m_split);
        break;
    case StepKind::WeightedSum:
    case StepKind::TransposeBack:
        m_split->present(Mode::Concat, 1.0, false);
        m_side->setCurrentWidget(m_split);
        break;
    case StepKind::Concat:
        m_split->present(Mode::Concat, 0.0, animate);
        m_side->setCurrentWidget(m_split);
        break;
    case StepKind::OutputProjection:
        m_side->setCurrentWidget(m_output);
        break;
    default:
        m_side->setCurrentWidget(m_cell);
        break;
    }
    fitSideTabs(); // and again when the page in front gets its width (eventFilter)
}

void PipelineView::pickCell(int head, int query, int key)
{
    bringUpToDate(); // the cell is picked in the newest trace
    if (!m_trace || head < 0 || query < 0 || key < 0)
        return;
    m_cell->setCell(head, query, key);
    m_cellPicked = true;
    m_side->setCurrentWidget(m_cell);
    fitSideTabs();
}

void PipelineView::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_PageDown:
        setStep(m_step + 1);
        break;
    case Qt::Key_Left:
    case Qt::Key_PageUp:
        setStep(m_step - 1);
        break;
    case Qt::Key_Home:
        setStep(0);
        break;
    case Qt::Key_End:
        setStep(stepCount() - 1);
        break;
    case Qt::Key_Space:
        m_stepper->setPlaying(!m_stepper->isPlaying());
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

} // namespace headlens
