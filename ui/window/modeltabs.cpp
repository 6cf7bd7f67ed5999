// ModelTabs: six pages added hidden, made visible together with the model's run.
#include "window/modeltabs.h"

#include "corpus/corpuspanel.h"
#include "lens/atlasview.h"
#include "lens/circuitsview.h"
#include "lens/flowview.h"
#include "lens/lensview.h"
#include "models/modeloverview.h"
#include "window/modelwiring.h"

#include <QTabWidget>

namespace headlens {

ModelTabs::ModelTabs(QTabWidget *tabs, ModelWiring *models, QWidget *fallback)
    : QObject(tabs), m_tabs(tabs), m_overview(models->overview()), m_lens(models->lens()),
      m_atlas(models->atlas()), m_flow(models->flow()), m_circuits(models->circuits()),
      m_corpus(models->corpus()), m_fallback(fallback)
{
    tabs->addTab(m_overview, tr("Model"));
    tabs->setTabVisible(tabs->indexOf(m_overview), false);
    tabs->addTab(m_lens, tr("Lens"));
    tabs->setTabVisible(tabs->indexOf(m_lens), false);
    tabs->addTab(m_atlas, tr("Atlas"));
    tabs->setTabVisible(tabs->indexOf(m_atlas), false);
    tabs->addTab(m_flow, tr("Flow"));
    tabs->setTabVisible(tabs->indexOf(m_flow), false);
    tabs->addTab(m_circuits, tr("Circuits"));
    tabs->setTabVisible(tabs->indexOf(m_circuits), false);
    tabs->addTab(m_corpus, tr("Corpus"));
    tabs->setTabVisible(tabs->indexOf(m_corpus), false);
    connect(models, &ModelWiring::runShown, this, &ModelTabs::setShown);
}

void ModelTabs::showModel()
{
    showIfVisible(m_overview);
}

void ModelTabs::showLens()
{
    showIfVisible(m_lens);
}

void ModelTabs::showAtlas()
{
    showIfVisible(m_atlas);
}

void ModelTabs::showFlow()
{
    showIfVisible(m_flow);
}

void ModelTabs::showCircuits()
{
    showIfVisible(m_circuits);
}

void ModelTabs::showCorpus()
{
    showIfVisible(m_corpus);
}

void ModelTabs::setShown(bool shown)
{
    for (QWidget *page : {m_overview, m_lens, m_atlas, m_flow, m_circuits, m_corpus}) {
        const int index = m_tabs->indexOf(page);
        if (!shown && m_tabs->currentIndex() == index)
            m_tabs->setCurrentWidget(m_fallback);
        m_tabs->setTabVisible(index, shown);
    }
}

void ModelTabs::showIfVisible(QWidget *page)
{
    if (m_tabs->isTabVisible(m_tabs->indexOf(page)))
        m_tabs->setCurrentWidget(page);
}

} // namespace headlens
