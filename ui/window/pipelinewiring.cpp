// PipelineWiring: each analysis goes to the view and the shift check; the RoPE panel drives it.
#include "window/pipelinewiring.h"

#include "pipeline/pipelinecommands.h"
#include "pipeline/pipelineview.h"
#include "pipeline/ropepanel.h"
#include "runner/positionshiftrunner.h"
#include "runner/tracerunner.h"
#include "window/mainactions.h"

#include <QAction>

namespace headlens {

PipelineWiring::PipelineWiring(TraceRunner *runner, PipelineView *pipeline, MainActions *actions,
                               QWidget *window)
    : QObject(window)
{
    connect(runner, &TraceRunner::analysisReady, pipeline, &PipelineView::setAnalysis);
    m_shiftRunner = new PositionShiftRunner(this);
    RopePanel *rope = pipeline->ropePanel();
    connect(runner, &TraceRunner::analysisReady, m_shiftRunner, &PositionShiftRunner::setAnalysis);
    connect(rope, &RopePanel::shiftChanged, m_shiftRunner, &PositionShiftRunner::setShift);
    connect(rope, &RopePanel::shownChanged, m_shiftRunner, &PositionShiftRunner::setWanted);
    connect(m_shiftRunner, &PositionShiftRunner::checked, rope, &RopePanel::setShiftResult);
    auto *files = new PipelineCommands(pipeline, window);
    connect(actions->exportStep, &QAction::triggered, files,
            &PipelineCommands::chooseAndExportStep);
    connect(actions->exportHandout, &QAction::triggered, files,
            &PipelineCommands::chooseAndWriteHandout);
    connect(files, &PipelineCommands::message, this, &PipelineWiring::message);
}

} // namespace headlens
