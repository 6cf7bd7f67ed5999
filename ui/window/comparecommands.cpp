// CompareCommands: the view's B to TraceRunner::setComparison, the runs back to the view.
#include "window/comparecommands.h"

#include "compare/compareview.h"
#include "models/modelcontroller.h"
#include "models/modelpicker.h"
#include "runner/tracerunner.h"
#include "workspace/workspace.h"

namespace headlens {

CompareCommands::CompareCommands(TraceRunner *runner, Workspace *workspace, ModelController *models,
                                 CompareView *view, QObject *parent)
    : QObject(parent), m_runner(runner), m_workspace(workspace), m_models(models), m_view(view)
{
    connect(view, &CompareView::compareRequested, this, &CompareCommands::compare);
    connect(view, &CompareView::shownChanged, this, &CompareCommands::setShown);
    connect(view, &CompareView::chooseModelRequested, this, &CompareCommands::chooseModelB);
    connect(runner, &TraceRunner::traceReady, this,
            [this](std::shared_ptr<const Trace> trace) { m_latest = std::move(trace); });
    connect(runner, &TraceRunner::comparisonReady, view, [this](auto runs) {
        m_view->setComparison(std::move(runs), m_workspace->state().batchIndex);
    });
    connect(runner, &TraceRunner::comparisonFailed, view, &CompareView::showFailed);
    connect(workspace, &Workspace::batchIndexChanged, view,
            [this](int index) { m_view->setComparison(m_view->runs(), index); });
}

void CompareCommands::compare(const ComparisonRequest &b)
{
    if (!b.wanted()) {
        m_view->showHint(b.change == ComparedChange::Model
                             ? tr("Name model B: a folder or a .gguf file of A's shape and "
                                  "tokenizer, or Choose… one from the list.")
                             : tr("Text B is empty: type the text to compare with, then "
                                  "Compare."));
        return;
    }
    m_runner->setComparison(b);
    m_runner->submit(m_workspace->state(), m_models->source());
}

// The list File ▸ Open model shows; the model chosen is B at once.
void CompareCommands::chooseModelB()
{
    const QString path = ModelPicker::choose(m_view);
    if (path.isEmpty())
        return;
    m_view->setTextB(path);
    compare(m_view->request());
}

// Shown again after edits made elsewhere: what it shows is A's old trace, so both run again.
void CompareCommands::setShown(bool shown)
{
    const ComparisonRequest b = m_view->request();
    m_runner->setComparison(shown ? b : ComparisonRequest());
    const auto runs = m_view->runs();
    if (shown && b.wanted() && m_latest && (!runs || runs->a != m_latest || runs->request != b))
        compare(b);
}

} // namespace headlens
