// HeadsGridView: lays out square-ish thumbnails and mirrors the shared selection in each.
#include "views/headsgridview.h"

#include "panels/verticalscrollarea.h"
#include "plot/colorlegend.h"
#include "plot/colorrange.h"
#include "plot/headcolors.h"
#include "plot/heatmapplot.h"
#include "selection/selection.h"
#include "views/kvgroupframe.h"
#include "views/stalefade.h"
#include "views/stalemark.h"
#include "views/tracereader.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTimer>
#include <QToolTip>

#include <numeric>

namespace headlens {

HeadsGridView::HeadsGridView(QWidget *parent) : QWidget(parent)
{
    setObjectName("headsGrid");
    auto *outer = new QHBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *column = new QVBoxLayout;
    column->setContentsMargins(0, 0, 0, 0);
    m_stale = new StaleMark(this);
    m_stack = new QStackedWidget(this);
    m_hint = new QLabel(this);
    m_hint->setAlignment(Qt::AlignCenter);
    m_hint->setWordWrap(true);
    m_hint->setObjectName("hint");
    m_gridHost = new QWidget(this);
    m_gridHost->installEventFilter(this);
    m_grid = new QGridLayout(m_gridHost);
    m_grid->setContentsMargins(2, 2, 2, 2);
    m_grid->setSpacing(6);
    // The heatmaps have the sizes the arrangement gives them; what is left over goes around.
    m_grid->setAlignment(Qt::AlignTop | Qt::AlignHCenter);
    // Down only: the arrangement takes as many columns as the width holds.
    m_scroll = new VerticalScrollArea(this);
    m_scroll->setObjectName("headsScroll");
    m_scroll->setWidget(m_gridHost);
    m_fade = new StaleFade(m_scroll);
    m_stack->addWidget(m_hint);
    m_stack->addWidget(m_scroll);
    m_legend = new ColorLegend(this);
    column->addWidget(m_stale);
    column->addWidget(m_stack, 1);
    outer->addLayout(column, 1);
    outer->addWidget(m_legend);
    m_thumbnails = new HeadImageMaker(this);
    connect(m_thumbnails, &HeadImageMaker::ready, this, &HeadsGridView::applyThumbnails);
    showHint(tr("Computing attention…"));
}

void HeadsGridView::setSelection(Selection *selection)
{
    m_selection = selection;
    connect(selection, &Selection::hoverChanged, this, &HeadsGridView::onHoverChanged);
}

void HeadsGridView::setTrace(std::shared_ptr<const Trace> trace, int batchIndex)
{
    // The same trace drawn again (another sentence of the batch, a new style) is still the
    // last good picture: a stale mark on it stays until a newer trace comes.
    const bool newer = trace != m_trace;
    m_trace = std::move(trace);
    m_batch =
        m_trace ? std::clamp(batchIndex, 0, int(std::max<int64_t>(m_trace->batch(), 1)) - 1) : 0;
    const bool plotsChanged = ensurePlots(m_trace ? m_trace->heads() : 0);
    const bool groupsChanged = ensureGroups(m_trace ? m_trace->config.kvHeadCount() : 0);
    if (plotsChanged || groupsChanged)
        m_arrangement = {};
    refill();
    // The cells follow the text's length as much as the count of heads.
    m_cellRows = m_trace ? int(TraceReader::queryLabels(*m_trace, m_batch).size()) : 0;
    m_cellCols = m_trace ? int(TraceReader::keyLabels(*m_trace, m_batch).size()) : 0;
    arrange();
    m_stack->setCurrentWidget(m_scroll);
    m_legend->setVisible(m_style.colorScale != ColorScaleMode::PerHead);
    if (newer)
        setStale({});
}

// The old picture stays (the shapes of a working setting are worth seeing beside the
// message), drawn once, faded, under a band that says why it is not the settings on the left.
void HeadsGridView::setStale(const QString &reason)
{
    const bool stale = !reason.isEmpty() && m_stack->currentWidget() == m_scroll;
    m_stale->setReason(stale ? reason : QString());
    m_fade->setVisible(stale);
}

void HeadsGridView::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    m_legend->setPlotStyle(style);
    m_legend->setVisible(style.colorScale != ColorScaleMode::PerHead &&
                         m_stack->currentWidget() == m_scroll);
    m_stale->setLook(style.dark, style.fontScale);
    QFont hintFont = font();
    hintFont.setPointSizeF(13 * style.fontScale);
    m_hint->setFont(hintFont);
    for (HeatmapPlot *plot : m_plots)
        plot->setPlotStyle(style, true);
    for (KvGroupFrame *frame : m_groups)
        frame->setLook(style.dark, style.fontScale);
    refill();
}

void HeadsGridView::showHint(const QString &text)
{
    m_hint->setText(text);
    m_stack->setCurrentWidget(m_hint);
    m_legend->setVisible(false);
    setStale({});
}

QString HeadsGridView::hint() const
{
    return m_stack->currentWidget() == m_hint ? m_hint->text() : QString();
}

bool HeadsGridView::ensurePlots(int count)
{
    const bool changed = count != int(m_plots.size());
    while (int(m_plots.size()) > count) {
        delete m_plots.back();
        m_plots.pop_back();
    }
    while (int(m_plots.size()) < count) {
        const int head = int(m_plots.size());
        auto *plot = new HeatmapPlot(m_gridHost);
        plot->setPlotStyle(m_style, true);
        plot->setColorScaleVisible(false);
        // Its labels' room is known once it has been laid out with them: arrange again.
        connect(plot, &HeatmapPlot::labelledMarginsChanged, this, &HeadsGridView::arrangeSoon);
        connect(plot, &HeatmapPlot::cellHovered, this,
                [this, head](int row, int col) { onCellHovered(head, row, col); });
        connect(plot, &HeatmapPlot::hoverLeft, this, [this] {
            if (m_selection)
                m_selection->clearHover();
        });
        plot->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(plot, &QWidget::customContextMenuRequested, this,
                [this, head, plot](const QPoint &at) {
                    if (m_trace)
                        emit headMenuRequested(m_trace->layer, head, plot->mapToGlobal(at));
                });
        connect(plot, &HeatmapPlot::clicked, this, [this, head] {
            if (!m_selection)
                return;
            m_selection->setPinnedHead(head);
            if (m_selection->hoverHead() == head)
                m_selection->pickCell(head, m_selection->hoverQuery(), m_selection->hoverKey());
        });
        m_plots.push_back(plot);
    }
    return changed;
}

// Heads that share a K/V head are framed together; with h_kv = h (multi-head) there are no
// frames and the grid is as it always was. The plots are moved out before a frame goes.
bool HeadsGridView::ensureGroups(int kvHeads)
{
    const int heads = int(m_plots.size());
    const bool grouped = kvHeads >= 1 && kvHeads < heads && heads % kvHeads == 0;
    const int wanted = grouped ? kvHeads : 0;
    if (wanted == int(m_groups.size()) && (wanted == 0 || heads == m_groupedHeads))
        return false;
    m_groupedHeads = heads;
    for (HeatmapPlot *plot : m_plots)
        plot->setParent(m_gridHost);
    for (KvGroupFrame *frame : m_groups)
        delete frame;
    m_groups.clear();
    const int perGroup = grouped ? heads / kvHeads : 0;
    for (int g = 0; g < wanted; ++g) {
        auto *frame = new KvGroupFrame(g, g * perGroup, (g + 1) * perGroup - 1, m_gridHost);
        frame->setLook(m_style.dark, m_style.fontScale);
        m_groups.push_back(frame);
    }
    return true;
}

// The arrangement that shows every head at once with the largest cells, each token label at
// least a line tall: the heads share their tokens, so only the first column names the rows and
// the bottom heatmaps the columns, and every heatmap's cells are the same size, aligned across
// the grid. When no arrangement holds every head at that size, the rows that do not fit scroll
// down (never sideways).
void HeadsGridView::arrange()
{
    const int count = int(m_plots.size());
    if (count == 0)
        return;
    // This widget's own size: the grid host's lags behind it inside a resize. The vertical
    // scroll bar's room is always kept, so its coming and going cannot change the arrangement.
    // The legend's room whenever the grid shows (it is hidden while a hint is shown).
    const int legend = m_style.colorScale == ColorScaleMode::PerHead ? 0 : m_legend->width();
    const int bar = m_scroll->verticalScrollBar()->sizeHint().width();
    const int stale = m_stale->isVisible() ? m_stale->height() : 0;
    const QMargins margins = m_grid->contentsMargins();
    const QSize area(std::max(width() - legend - bar - margins.left() - margins.right(), 100),
                     std::max(height() - stale - margins.top() - margins.bottom(), 100));
    const int rows = std::max(m_cellRows, 1);
    const int cols = std::max(m_cellCols, 1);
    // Each placement changes which heatmaps draw which labels, and so the room they take:
    // measured again, the next pass places them by it (the second pass keeps what the first
    // placed, once every kind of heatmap has been measured).
    for (int pass = 0; pass < 3; ++pass) {
        const TileRoom room = TileRoom::measure(m_plots);
        const GridArrangement best = bestArrangement(area, rows, cols, room);
        if (best == m_arrangement && room == m_placedRoom)
            return;
        place(best, room);
    }
}

GridArrangement HeadsGridView::bestArrangement(QSize area, int rows, int cols,
                                               const TileRoom &room) const
{
    const int count = int(m_plots.size());
    const HeatmapPlot *first = m_plots.front();
    // Cells a label's pitch tall draw every token label (when there are few enough to label);
    // no heatmap is smaller than kMinPlotSide either way.
    const double smallest = double(kMinPlotSide) / std::max(rows, cols);
    const bool everyLabel = std::max(rows, cols) <= HeatmapPlot::kMaxLabelledRows;
    const double labelled = std::max(
        everyLabel ? HeatmapPlot::labelPitch(first->yAxis->tickLabelFont()) : 0.0, smallest);
    const bool framed = !m_groups.empty();
    const auto arrangement = [&](double minCell) {
        return GridArrangement::best(
            count, int(m_groups.size()), area, rows, cols, room, minCell,
            framed ? m_groups.front()->grid()->spacing() : m_grid->spacing(),
            framed ? m_groups.front()->overhead() : QSize(), m_grid->spacing());
    };
    const GridArrangement best = arrangement(labelled);
    // A layer's heads (up to kAllAtOnce) are seen at once on a projector, with every other
    // label, rather than some of them with every label and the rest below the fold.
    if (!best.fits && count <= kAllAtOnce) {
        const GridArrangement readable = arrangement(std::max(kReadableCell, smallest));
        if (readable.fits)
            return readable;
    }
    return best;
}

void HeadsGridView::arrangeSoon()
{
    if (m_arrangePending)
        return;
    m_arrangePending = true;
    QTimer::singleShot(0, this, [this] {
        m_arrangePending = false;
        arrange();
    });
}

void HeadsGridView::place(const GridArrangement &arrangement, const TileRoom &room)
{
    m_arrangement = arrangement;
    m_placedRoom = room;
    for (HeatmapPlot *plot : m_plots)
        m_grid->removeWidget(plot);
    for (KvGroupFrame *frame : m_groups)
        m_grid->removeWidget(frame);
    const int count = int(m_plots.size());
    const int perGroup = m_groups.empty() ? count : count / int(m_groups.size());
    for (int i = 0; i < count; ++i) {
        HeatmapPlot *plot = m_plots[size_t(i)];
        const int k = i % perGroup;
        const bool rows = arrangement.drawsRowLabels(k);
        const bool cols = arrangement.drawsColumnLabels(k, perGroup);
        plot->setTickLabelsShown(rows, cols);
        plot->setFixedSize(arrangement.tileSize(room.labelled[rows][cols], std::max(m_cellRows, 1),
                                                std::max(m_cellCols, 1)));
    }
    if (m_groups.empty()) {
        for (int i = 0; i < count; ++i) {
            m_grid->addWidget(m_plots[size_t(i)], i / arrangement.inner, i % arrangement.inner);
            m_plots[size_t(i)]->show(); // shown again after leaving a frame
        }
        return;
    }
    for (int g = 0; g < int(m_groups.size()); ++g) {
        KvGroupFrame *frame = m_groups[size_t(g)];
        m_grid->addWidget(frame, g / arrangement.outer, g % arrangement.outer);
        for (int k = 0; k < perGroup; ++k) {
            HeatmapPlot *plot = m_plots[size_t(g * perGroup + k)];
            frame->grid()->addWidget(plot, k / arrangement.inner, k % arrangement.inner);
            plot->show();
        }
        frame->show();
    }
}

void HeadsGridView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrange();
}

// A heatmap's minimum follows its labels and font (measured in its layout): when it changes,
// the columns that fit may change too.
bool HeadsGridView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_gridHost && event->type() == QEvent::LayoutRequest)
        arrange();
    return QWidget::eventFilter(watched, event);
}

void HeadsGridView::refill()
{
    if (!m_trace)
        return;
    const QStringList rows = TraceReader::queryLabels(*m_trace, m_batch);
    const QStringList cols = TraceReader::keyLabels(*m_trace, m_batch);
    for (int head = 0; head < int(m_plots.size()); ++head) {
        HeatmapPlot *plot = m_plots[size_t(head)];
        plot->setLabels(rows, cols);
        plot->setTitleColor(HeadColors::color(head, m_style.dark));
    }
    retitle();
    if (m_shown.madeFrom(m_trace, m_batch)) {
        applyThumbnails(m_shown);
    } else {
        std::vector<int> heads(m_plots.size());
        std::iota(heads.begin(), heads.end(), 0);
        m_thumbnails->request(m_trace, m_batch, std::move(heads), kThumbnailCells);
    }
    if (m_selection)
        onHoverChanged(m_selection->hoverHead(), m_selection->hoverQuery(),
                       m_selection->hoverKey());
}

void HeadsGridView::setHeadNotes(std::vector<QString> notes, const QString &toolTip)
{
    m_notes = std::move(notes);
    m_notesToolTip = toolTip;
    retitle();
}

// A note is a line of its own under the title: a narrow heatmap elides each line at its right,
// and the note is what its reader asked to see.
void HeadsGridView::retitle()
{
    if (!m_trace)
        return;
    for (int head = 0; head < int(m_plots.size()); ++head) {
        HeatmapPlot *plot = m_plots[size_t(head)];
        QString title = TraceReader::headTitle(*m_trace, m_batch, head);
        QString toolTip = TraceReader::headTitleToolTip(*m_trace, m_batch, head);
        const QString note = size_t(head) < m_notes.size() ? m_notes[size_t(head)] : QString();
        if (!note.isEmpty()) {
            title += QLatin1Char('\n') + note;
            toolTip = title + QLatin1Char('\n') + m_notesToolTip +
                      (toolTip.isEmpty() ? QString() : toolTip.mid(toolTip.indexOf('\n')));
        }
        plot->setTitle(title);
        plot->setTitleToolTip(toolTip);
    }
}

void HeadsGridView::applyThumbnails(const HeadImages &thumbnails)
{
    if (!thumbnails.madeFrom(m_trace, m_batch))
        return; // made for a trace that is no longer shown
    m_shown = thumbnails;
    for (const HeadImage &image : thumbnails.heads) {
        if (image.head >= int(m_plots.size()))
            continue;
        HeatmapPlot *plot = m_plots[size_t(image.head)];
        thumbnails.draw(image, plot, m_style.colorScale);
        // With the picture, as its NaN count is counted with it: the veil of a trace's head
        // never lies over another trace's picture.
        plot->setDimmed(TraceReader::veilLabel(*m_trace, m_batch, image.head, image.notANumber));
    }
    const ColorRange shared = ColorRange::of(m_style.colorScale, thumbnails.largestWeight(), {});
    m_legend->setRange(shared.lower, shared.upper);
    m_legend->setTitle(ColorRange::legendTitle(m_style.colorScale));
}

void HeadsGridView::onCellHovered(int head, int row, int col)
{
    if (!m_trace)
        return;
    m_hoverText = TraceReader::describeCell(*m_trace, m_batch, head, row, col);
    QToolTip::showText(QCursor::pos(), m_hoverText, m_plots[size_t(head)]);
    emit hoverTextChanged(m_hoverText);
    if (m_selection)
        m_selection->setHover(head, row, col);
}

void HeadsGridView::onHoverChanged(int head, int query, int key)
{
    for (int i = 0; i < int(m_plots.size()); ++i)
        m_plots[size_t(i)]->setHighlight(query, i == head ? key : -1);
}

} // namespace headlens
