// HeadsThatMatterView: a document-mode tab widget over the two ranking views.
#include "interventions/headsthatmatterview.h"

#include "interventions/headimportanceview.h"
#include "interventions/patchingmapview.h"

namespace headlens {

HeadsThatMatterView::HeadsThatMatterView(QWidget *parent) : QTabWidget(parent)
{
    setObjectName("headsThatMatter");
    setDocumentMode(true);
    m_importance = new HeadImportanceView(this);
    m_patching = new PatchingMapView(this);
    addTab(m_importance, tr("Importance (ablate each head)"));
    addTab(m_patching, tr("Patching map (restore each head)"));
}

void HeadsThatMatterView::setPlotStyle(const PlotStyle &style)
{
    m_importance->setPlotStyle(style);
    m_patching->setPlotStyle(style);
}

} // namespace headlens
