// HeadsPage: a column of the strip (scrolled sideways) and a splitter of the grid and one head.
#include "views/headspage.h"

#include "views/headsgridview.h"
#include "views/singleheadview.h"
#include "views/tokenstrip.h"
#include "views/tracereader.h"

#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

namespace headlens {

HeadsPage::HeadsPage(Selection *selection, QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    m_strip = new TokenStrip(this);
    m_strip->setSelection(selection);
    m_stripScroll = new QScrollArea(this);
    m_stripScroll->setWidget(m_strip);
    m_stripScroll->setWidgetResizable(true);
    m_stripScroll->setFrameShape(QFrame::NoFrame);
    m_stripScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_stripScroll->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    fitStripHeight();
    m_grid = new HeadsGridView(this);
    m_grid->setSelection(selection);
    m_single = new SingleHeadView(this);
    m_single->setSelection(selection);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName("viewSplitter");
    splitter->addWidget(m_grid);
    splitter->addWidget(m_single);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(m_stripScroll);
    layout->addWidget(splitter, 1);
    connect(m_grid, &HeadsGridView::hoverTextChanged, this, &HeadsPage::hoverTextChanged);
    connect(m_single, &SingleHeadView::hoverTextChanged, this, &HeadsPage::hoverTextChanged);
}

void HeadsPage::insertBar(int index, QWidget *bar)
{
    static_cast<QVBoxLayout *>(layout())->insertWidget(index, bar);
}

void HeadsPage::setTrace(const std::shared_ptr<const Trace> &trace, int batchIndex)
{
    m_grid->setTrace(trace, batchIndex);
    m_single->setTrace(trace, batchIndex);
    m_strip->setTokens(TraceReader::queryLabels(*trace, batchIndex));
}

void HeadsPage::setPlotStyle(const PlotStyle &style)
{
    m_grid->setPlotStyle(style);
    m_single->setPlotStyle(style);
    m_strip->setPlotStyle(style);
    fitStripHeight();
}

void HeadsPage::fitStripHeight()
{
    m_stripScroll->setFixedHeight(m_strip->sizeHint().height() + 14);
}

} // namespace headlens
