// RunAnalysisView: a tab that analyses the run on screen off the UI thread, only while shown.
#pragma once

#include "model/modelrun.h"

#include <QWidget>

#include <memory>

namespace headlens {

class LensRunner;

/// The Lens, Atlas and Flow tabs: each new run is analysed when the tab is shown, or as soon as
/// it is while shown, and not at all while hidden (an analysis runs the model again: seconds
/// for GPT-2 small). The analysis in flight is forgotten when another run comes (runner()'s
/// newest-wins). A view that `Reads::UnchangedModel` ignores a run with the same tokens and
/// model (another layer traced, heads ablated), keeping the newer run without recomputing.
class RunAnalysisView : public QWidget
{
    Q_OBJECT

public:
    enum class Reads
    {
        UnchangedModel, ///< the model as opened, on the run's tokens
        Run,            ///< the run itself, its ablations included
    };

    /// The run whose model and text the analysis reads (null: none; the tab is hidden then).
    void setRun(std::shared_ptr<const ModelRun> run);
    LensRunner *runner() const { return m_runner; }
    /// Whether what the view holds was computed for the run it was last given (a view not shown
    /// since, or whose analysis failed, may still hold an older run's): what File > Export view
    /// may draw.
    bool isCurrent() const { return m_run && m_analysed.lock() == m_run; }

protected:
    RunAnalysisView(Reads reads, QWidget *parent);
    const std::shared_ptr<const ModelRun> &run() const { return m_run; }
    void showEvent(QShowEvent *event) override;
    /// The view's own choice changed what it computes (the head whose circuits are read): the
    /// analysis in flight is forgotten, and the new one starts now if shown, else when shown.
    void recompute();
    /// A new run to analyse came (the one in flight is forgotten): clear what showed the last.
    virtual void runChanged() {}
    /// Starts runner() on run(): the view is shown and the run has a model.
    virtual void start() = 0;
    /// The view's analysis of run() arrived (isCurrent until another run comes).
    void markAnalysed() { m_analysed = m_run; }

private:
    void computeIfShown();

    Reads m_reads;
    std::shared_ptr<const ModelRun> m_run;
    /// The run whose analysis the view holds: weak, so that an old run (all its heads' weights)
    /// is not kept alive for a comparison.
    std::weak_ptr<const ModelRun> m_analysed;
    bool m_stale = false; ///< m_run's analysis has not been asked for yet
    LensRunner *m_runner = nullptr;
};

} // namespace headlens
