// HeadsThatMatterView: a document-mode tab widget over the two ranking views, each scrolled.
#include "interventions/headsthatmatterview.h"

#include "interventions/datasetview.h"
#include "interventions/headimportanceview.h"
#include "interventions/patchingmapview.h"
#include "interventions/positionpatchplot.h"
#include "interventions/rankingheatmap.h"
#include "panels/verticalscrollarea.h"

#include <QScrollBar>

namespace headlens {

HeadsThatMatterView::HeadsThatMatterView(QWidget *parent) : QTabWidget(parent)
{
    setObjectName("headsThatMatter");
    setDocumentMode(true);
    const auto scrolled = [this](QWidget *page) {
        auto *scroll = new VerticalScrollArea(this);
        scroll->setWidget(page);
        return scroll;
    };
    m_importance = new HeadImportanceView;
    m_patching = new PatchingMapView;
    addTab(scrolled(m_importance), tr("Importance (ablate each head)"));
    addTab(scrolled(m_patching), tr("Patching map (restore each head)"));
    m_dataset = new DatasetView;
    addTab(scrolled(m_dataset), tr("Over a dataset"));
}

void HeadsThatMatterView::showPatching()
{
    setCurrentIndex(1);
}

void HeadsThatMatterView::showDataset()
{
    setCurrentIndex(2);
}

void HeadsThatMatterView::scrollToPatchingMap()
{
    // The map's top first; then as much further as the bars need to show whole.
    if (auto *scroll = qobject_cast<QScrollArea *>(widget(1))) {
        scroll->verticalScrollBar()->setValue(m_patching->heatmap()->y());
        scroll->ensureWidgetVisible(m_patching->positions(), 0, 0);
    }
}

void HeadsThatMatterView::setPlotStyle(const PlotStyle &style)
{
    m_importance->setPlotStyle(style);
    m_patching->setPlotStyle(style);
    m_dataset->setPlotStyle(style);
}

} // namespace headlens
