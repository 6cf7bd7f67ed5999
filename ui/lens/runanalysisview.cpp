// RunAnalysisView: the run kept, the runner started when the view can be seen.
#include "lens/runanalysisview.h"

#include "lens/lensrunner.h"

namespace headlens {

RunAnalysisView::RunAnalysisView(Reads reads, QWidget *parent)
    : QWidget(parent), m_reads(reads), m_runner(new LensRunner(this))
{}

void RunAnalysisView::setRun(std::shared_ptr<const ModelRun> run)
{
    if (m_reads == Reads::UnchangedModel && run && m_run && run->tokenIds == m_run->tokenIds &&
        run->segments == m_run->segments && run->source.model == m_run->source.model) {
        if (m_analysed.lock() == m_run) // the same analysis holds for the newer run
            m_analysed = run;
        m_run = std::move(run); // the newer run kept, the older let go
        return;
    }
    m_run = std::move(run);
    m_runner->cancel();
    m_stale = m_run != nullptr;
    runChanged();
    computeIfShown();
}

void RunAnalysisView::recompute()
{
    m_analysed.reset();
    m_runner->cancel();
    m_stale = m_run != nullptr;
    computeIfShown();
}

void RunAnalysisView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    computeIfShown();
}

void RunAnalysisView::computeIfShown()
{
    if (!m_stale || !isVisible() || !m_run || !m_run->source.model)
        return;
    m_stale = false;
    start();
}

} // namespace headlens
