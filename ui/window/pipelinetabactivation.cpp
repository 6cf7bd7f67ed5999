// PipelineTabActivation: set once for the tab shown at start, then on every tab change.
#include "window/pipelinetabactivation.h"

#include "pipeline/pipelineview.h"
#include "runner/traceanalysis.h"
#include "runner/tracerunner.h"

#include <QTabWidget>

namespace headlens {

PipelineTabActivation::PipelineTabActivation(QTabWidget *tabs, PipelineView *pipeline,
                                             TraceRunner *runner, std::function<bool()> hasTrace)
    : QObject(tabs), m_tabs(tabs), m_pipeline(pipeline), m_runner(runner),
      m_hasTrace(std::move(hasTrace))
{
    follow();
    connect(tabs, &QTabWidget::currentChanged, this, [this] {
        const bool pipeline = follow();
        const auto analysis = m_pipeline->analysis();
        if (pipeline && m_hasTrace() && (!analysis || !analysis->compared))
            emit recomputeWanted();
    });
}

bool PipelineTabActivation::follow()
{
    const bool pipeline = m_tabs->currentWidget() == m_pipeline;
    m_runner->setComparisonWanted(pipeline);
    m_pipeline->setActive(pipeline);
    return pipeline;
}

} // namespace headlens
