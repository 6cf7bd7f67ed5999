// LinesView: a bar over a vertically scrolling AttentionLines.
#include "views/linesview.h"

#include "panels/fulltextcombobox.h"
#include "panels/verticalscrollarea.h"
#include "plot/headcolors.h"
#include "selection/selection.h"
#include "views/attentionlines.h"
#include "views/tracereader.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QPixmap>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace headlens {

LinesView::LinesView(QWidget *parent) : QWidget(parent)
{
    setObjectName("linesView");
    m_lines = new AttentionLines(this);
    m_heads = new FullTextComboBox(24, this);
    m_heads->setObjectName("linesHeads");
    m_heads->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_hint = new QLabel(tr("Each line joins a query to a key it attends to, the stronger the "
                           "weight the bolder. Hover a token to keep only its lines."),
                        this);
    m_hint->setWordWrap(true);
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Heads"), this));
    bar->addWidget(m_heads);
    bar->addWidget(m_hint, 1);
    auto *scroll = new VerticalScrollArea(this);
    scroll->setWidget(m_lines);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(scroll, 1);
    connect(m_heads, &QComboBox::activated, this, [this](int index) {
        const int head = index - 1; // entry 0 is "All heads"
        m_lines->setHeads(head < 0 ? std::vector<int>() : std::vector<int>{head});
        if (m_selection)
            m_selection->setPinnedHead(head);
    });
}

void LinesView::setSelection(Selection *selection)
{
    m_selection = selection;
    connect(selection, &Selection::pinnedHeadChanged, this, &LinesView::showPinned);
}

void LinesView::setTrace(std::shared_ptr<const Trace> trace, int batchIndex)
{
    fillHeads(trace ? trace->heads() : 0);
    if (trace)
        for (int head = 0; head < trace->heads(); ++head) {
            m_heads->setItemText(head + 1, TraceReader::headName(*trace, head));
            // A swatch of the head's line colour: the legend of the overlaid picture.
            QPixmap swatch(12, 12);
            swatch.fill(HeadColors::color(head, m_dark));
            m_heads->setItemIcon(head + 1, QIcon(swatch));
        }
    m_lines->setTrace(std::move(trace), batchIndex);
    showPinned(m_selection ? m_selection->pinnedHead() : -1);
}

void LinesView::fillHeads(int count)
{
    if (m_heads->count() == count + 1)
        return;
    const QSignalBlocker blocker(m_heads);
    m_heads->clear();
    m_heads->addItem(tr("All heads"));
    for (int head = 0; head < count; ++head)
        m_heads->addItem(QString());
}

void LinesView::showPinned(int head)
{
    const int index = head >= 0 && head + 1 < m_heads->count() ? head + 1 : 0;
    const QSignalBlocker blocker(m_heads);
    m_heads->setCurrentIndex(index);
    m_lines->setHeads(index == 0 ? std::vector<int>() : std::vector<int>{index - 1});
}

void LinesView::setPlotStyle(const PlotStyle &style)
{
    m_dark = style.dark;
    m_lines->setPlotStyle(style);
}

} // namespace headlens
