// windowparts.h: the window tests find the window's parts by object name, as a screen reader would.
#pragma once

#include "attention/trace.h"
#include "compare/compareview.h"
#include "cost/costpanel.h"
#include "interventions/ablationeffectbar.h"
#include "interventions/headsthatmatterview.h"
#include "panels/controlspanel.h"
#include "pipeline/pipelineview.h"
#include "runner/tracerunner.h"
#include "selection/selection.h"
#include "train/languagemodelview.h"
#include "train/trainview.h"
#include "views/headsgridview.h"
#include "views/headspage.h"
#include "views/linesview.h"
#include "views/tokenstrip.h"
#include "window/filecommands.h"
#include "window/modelwiring.h"
#include "workspace/workspace.h"

#include <QObject>
#include <QString>
#include <QTabWidget>
#include <QtGlobal>

#include <memory>

namespace headlens::test {

/// The object of type T named `objectName` among `window`'s children (at any depth). A window
/// without one ends the test there, with a message naming the object it lacks.
template <class T> T *part(const QObject &window, const char *objectName)
{
    T *found = window.findChild<T *>(QString::fromLatin1(objectName));
    if (!found)
        qFatal("windowparts: the window has no %s named \"%s\"", T::staticMetaObject.className(),
               objectName);
    return found;
}

/// The document: text, settings and file.
inline Workspace *workspaceOf(const QObject &window)
{
    return part<Workspace>(window, "workspace");
}
/// The worker that computes the traces.
inline TraceRunner *runnerOf(const QObject &window)
{
    return part<TraceRunner>(window, "traceRunner");
}
/// The chosen layer, head and cell, shared by every view.
inline Selection *selectionOf(const QObject &window)
{
    return part<Selection>(window, "selection");
}
/// The controls dock's panel.
inline ControlsPanel *controlsOf(const QObject &window)
{
    return part<ControlsPanel>(window, "controlsPanel");
}
/// The view tabs (Heads, Pipeline, Cost, Train, ...).
inline QTabWidget *tabsOf(const QObject &window)
{
    return part<QTabWidget>(window, "viewTabs");
}
/// The Heads tab: the grid, the single head, the strip and the heads' scores.
inline HeadsPage *headsPageOf(const QObject &window)
{
    return part<HeadsPage>(window, "headsPage");
}
/// The views' area (what "Export view" and --screenshot --view write): the Heads tab.
inline QWidget *viewAreaOf(const QObject &window)
{
    return headsPageOf(window);
}
inline HeadsGridView *gridOf(const QObject &window)
{
    return part<HeadsGridView>(window, "headsGrid");
}
inline TokenStrip *tokenStripOf(const QObject &window)
{
    return part<TokenStrip>(window, "tokenStrip");
}
/// What the ablated heads changed, over the heads (hidden while none is).
inline AblationEffectBar *ablationEffectOf(const QObject &window)
{
    return part<AblationEffectBar>(window, "ablationEffect");
}
/// The "Heads that matter" tab.
inline HeadsThatMatterView *headsThatMatterOf(const QObject &window)
{
    return part<HeadsThatMatterView>(window, "headsThatMatter");
}
/// The "Pipeline" tab.
inline PipelineView *pipelineOf(const QObject &window)
{
    return part<PipelineView>(window, "pipelineView");
}
inline LinesView *linesViewOf(const QObject &window)
{
    return part<LinesView>(window, "linesView");
}
/// The "Cost" tab.
inline CostPanel *costPanelOf(const QObject &window)
{
    return part<CostPanel>(window, "costPanel");
}
/// The Train tab's playground.
inline TrainView *trainViewOf(const QObject &window)
{
    return part<TrainView>(window, "trainView");
}
/// The Train tab's "Language model" mode.
inline LanguageModelView *languageModelViewOf(const QObject &window)
{
    return part<LanguageModelView>(window, "languageModelView");
}
/// The Compare tab.
inline CompareView *compareViewOf(const QObject &window)
{
    return part<CompareView>(window, "compareView");
}
/// The File menu's commands (open, save, recent files, the session).
inline FileCommands *filesOf(const QObject &window)
{
    return part<FileCommands>(window, "fileCommands");
}
/// The Model box, the Model tab and the model commands.
inline ModelWiring *modelsOf(const QObject &window)
{
    return part<ModelWiring>(window, "modelWiring");
}
/// The trace the window shows (every view is given the same one): the pipeline's, which it
/// keeps even while its tab is hidden. Null before the first.
inline std::shared_ptr<const Trace> shownTraceOf(const QObject &window)
{
    return pipelineOf(window)->trace();
}

} // namespace headlens::test
