// PipelineTabActivation: the pipeline's extra work runs only while the Pipeline tab shows.
#pragma once

#include <QObject>

#include <functional>

class QTabWidget;

namespace headlens {

class PipelineView;
class TraceRunner;

/// The four-ways comparison is computed only while the Pipeline tab shows, and the view draws
/// only then; opening the tab asks once for what is on screen when its analysis lacks it.
class PipelineTabActivation : public QObject
{
    Q_OBJECT
public:
    /// `hasTrace` says whether a trace is on screen (nothing to recompute before the first).
    PipelineTabActivation(QTabWidget *tabs, PipelineView *pipeline, TraceRunner *runner,
                          std::function<bool()> hasTrace);

signals:
    /// The Pipeline tab opened on a trace computed without the comparison.
    void recomputeWanted();

private:
    /// Tells the runner and the view whether the Pipeline tab is the current one.
    bool follow();

    QTabWidget *m_tabs;
    PipelineView *m_pipeline;
    TraceRunner *m_runner;
    std::function<bool()> m_hasTrace;
};

} // namespace headlens
