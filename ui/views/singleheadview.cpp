// SingleHeadView: follows Selection::pinnedHead; hidden when no head is pinned.
#include "views/singleheadview.h"

#include "plot/heatmapplot.h"
#include "selection/selection.h"
#include "views/tracereader.h"

#include <QLabel>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

namespace headlens {

SingleHeadView::SingleHeadView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_close = new QToolButton(this);
    m_close->setText(tr("Close ✕"));
    m_close->setToolTip(tr("Back to the grid only (Esc)"));
    m_close->setShortcut(QKeySequence(Qt::Key_Escape));
    m_close->setAutoRaise(true);
    m_plot = new HeatmapPlot(this);
    m_plot->setAxisTitles(tr("query token"), tr("key token"));
    auto *bar = new QHBoxLayout;
    bar->addStretch(1);
    bar->addWidget(m_close);
    layout->addLayout(bar);
    layout->addWidget(m_plot, 1);
    connect(m_plot, &HeatmapPlot::cellHovered, this, &SingleHeadView::onCellHovered);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        if (m_trace && m_head >= 0)
            emit headMenuRequested(m_trace->layer, m_head, m_plot->mapToGlobal(at));
    });
    connect(m_plot, &HeatmapPlot::hoverLeft, this, [this] {
        if (m_selection)
            m_selection->clearHover();
    });
    m_images = new HeadImageMaker(this);
    connect(m_images, &HeadImageMaker::ready, this, &SingleHeadView::applyImage);
    setMinimumWidth(320);
    hide();
}

void SingleHeadView::setSelection(Selection *selection)
{
    m_selection = selection;
    connect(selection, &Selection::pinnedHeadChanged, this, &SingleHeadView::setHead);
    connect(selection, &Selection::hoverChanged, this, [this](int head, int query, int key) {
        m_plot->setHighlight(query, head == m_head ? key : -1);
    });
    connect(m_close, &QToolButton::clicked, selection,
            [selection] { selection->setPinnedHead(-1); });
}

void SingleHeadView::setTrace(std::shared_ptr<const Trace> trace, int batchIndex)
{
    m_trace = std::move(trace);
    m_batch = batchIndex;
    if (m_trace && m_head >= m_trace->heads() && m_selection)
        m_selection->setPinnedHead(-1); // the pinned head no longer exists
    refill();
}

void SingleHeadView::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    PlotStyle large = style;
    large.fontScale *= 1.1;
    m_plot->setPlotStyle(large, false);
    refill();
}

void SingleHeadView::setHead(int head)
{
    m_head = head;
    setVisible(head >= 0);
    refill();
}

void SingleHeadView::refill()
{
    if (!m_trace || m_head < 0 || m_head >= m_trace->heads())
        return;
    m_plot->setLabels(TraceReader::queryLabels(*m_trace, m_batch),
                      TraceReader::keyLabels(*m_trace, m_batch));
    m_plot->setTitle(TraceReader::headTitle(*m_trace, m_batch, m_head));
    m_plot->setDimmed(TraceReader::veilLabel(*m_trace, m_batch, m_head));
    if (isCurrent(m_shown))
        m_shown.draw(m_shown.heads.front(), m_plot, m_style.colorScale);
    else
        m_images->request(m_trace, m_batch, {m_head}, kMaxCells);
}

bool SingleHeadView::isCurrent(const HeadImages &images) const
{
    return images.madeFrom(m_trace, m_batch) && !images.heads.empty() &&
           images.heads.front().head == m_head;
}

void SingleHeadView::applyImage(const HeadImages &images)
{
    if (!isCurrent(images))
        return; // made for a trace or head that is no longer shown
    m_shown = images;
    m_shown.draw(m_shown.heads.front(), m_plot, m_style.colorScale);
}

void SingleHeadView::onCellHovered(int row, int col)
{
    if (!m_trace)
        return;
    m_hoverText = TraceReader::describeCell(*m_trace, m_batch, m_head, row, col);
    QToolTip::showText(QCursor::pos(), m_hoverText, m_plot);
    emit hoverTextChanged(m_hoverText);
    if (m_selection)
        m_selection->setHover(m_head, row, col);
}

} // namespace headlens
