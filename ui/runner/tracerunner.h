// TraceRunner: runs TraceJobs through a Session in a worker thread; the newest one always wins.
#pragma once

#include "attention/trace.h"
#include "model/headimportance.h"
#include "model/modelrun.h"
#include "model/patchingmap.h"
#include "runner/comparedruns.h"
#include "runner/traceanalysis.h"
#include "runner/workerthread.h"
#include "session/ablationeffect.h"
#include "session/tracejob.h"
#include "workspace/workspacestate.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>

namespace headlens {

class Session;

/// Every submit() gets a generation number. A running computation whose generation is no longer
/// the newest is cancelled through TraceOptions::progress, and a result that arrives late is
/// dropped, so a view never shows an older request after a newer one. Because of that there is
/// no waiting for more edits by default: the first tick of a dragged slider is computed at once
/// and later ticks cancel what they make obsolete.
class TraceRunner : public QObject
{
    Q_OBJECT
public:
    explicit TraceRunner(QObject *parent = nullptr);
    ~TraceRunner() override;

    /// Milliseconds to wait for more edits before computing. 0 (the default) still merges the
    /// submits of one pass of the event loop (a workspace that sets several controls at once).
    void setDebounce(int milliseconds) { m_debounce.setInterval(milliseconds); }
    /// Validates `state` on the spot (cheap) and schedules the computation. `model`: a model
    /// already in memory to show instead of the one state.modelPath names.
    void submit(const WorkspaceState &state, const ModelSource &model = {});
    /// submit() with a ranking of the heads after the run (importance or a patching map), in the
    /// same worker: its passes say progress through rankingProgress, and any newer submit (an
    /// edit, cancelRanking) cancels it at its next pass (rankingCancelled, at once).
    /// False when the job was refused at once (invalid() or emptyInput() said why).
    bool submitRanking(const WorkspaceState &state, const ModelSource &model,
                       const RankingRequest &ranking);
    /// Stops the ranking in flight: its job is replaced by the same job without the ranking
    /// (whose trace the views may still wait for). Nothing when no ranking runs.
    void cancelRanking();
    bool isRanking() const { return m_rankingGeneration != 0; }
    bool isBusy() const { return m_inFlight > 0 || m_debounce.isActive(); }
    /// Whether each trace is followed by the four-ways comparison. It costs several forward
    /// passes (at n=128 the index loops alone take longer than the trace), so it is made only
    /// while someone can see it.
    void setComparisonWanted(bool wanted) { m_comparisonWanted = wanted; }
    /// Milliseconds without work after which the tensor blocks kept for the next trace
    /// (StoragePool) are given back to the system: they make a dragged slider fast, and are
    /// only idle memory once the person stops (up to 2 GiB at n=2048). Default 3000; after a
    /// long text's (tiled) run, `afterLongText`, default 30000: the blocks of the run before
    /// last are then what the next keystroke's run takes already written (0.74 s at 32,768
    /// tokens of Qwen2.5-0.5B, 6.0 s into fresh pages), so they wait through a pause to read.
    void setPoolTrimDelays(int milliseconds, int afterLongText)
    {
        m_poolTrimDelay = milliseconds;
        m_longTextPoolHold = afterLongText;
    }
    /// B of the Compare tab: while it is wanted() every trace is followed, in the worker, by the
    /// same job with B's text or changed setting (comparisonJob, comparisonReady). Set only while
    /// the tab is shown: it costs a second pass. Takes effect from the next submit().
    void setComparison(const ComparisonRequest &b) { m_comparison = b; }
    /// A corpus's mean z per head (CorpusSummary::headOutputMeans) and the model it was run
    /// through: while that model is the one submitted, its mean ablations write these means
    /// instead of the text's (HeadInterventions::meanSource). Empty means: the text's.
    void setMeanSource(const Tensor &means, std::shared_ptr<const OpenedModel> model)
    {
        m_means = means;
        m_meansModel = std::move(model);
    }
    quint64 generation() const { return m_generation.load(); }
    /// Test hook; the app never sets it. `hook` runs in the worker thread each time a trace has
    /// been computed, before it is handed to the UI thread. A test blocks in it while it submits
    /// newer requests: the finished trace is then obsolete on its way, the race newest-wins must
    /// survive, made to happen on every run instead of when the timing allows. Set before
    /// submit().
    void setTraceComputedHook(std::function<void()> hook) { m_traceComputedHook = std::move(hook); }
    /// Test hook; the app never sets it. Runs in the worker at each progress report of a job
    /// (the fraction done), before the runner answers whether to go on: a test blocks in it to
    /// cancel a ranking half-way on every run. Set before submit().
    void setProgressHook(std::function<void(double)> hook) { m_progressHook = std::move(hook); }

signals:
    void traceReady(std::shared_ptr<const headlens::Trace> trace);
    /// Right after traceReady: every layer of the model the trace came from, or null when the
    /// trace is the built-in layer.
    void modelRunReady(std::shared_ptr<const headlens::ModelRun> run);
    /// A run too long for its matrices, kept as tiles (ModelRun::tiled): no trace, no
    /// modelRunReady; failed() then says what the other views cannot draw.
    void tiledRunReady(std::shared_ptr<const headlens::ModelRun> run);
    /// After traceReady, for the same request: its weights and the four ways compared.
    void analysisReady(std::shared_ptr<const headlens::TraceAnalysis> analysis);
    /// The settings cannot be computed; the previous trace stays valid.
    void invalid(const headlens::ConfigProblem &problem);
    /// There is no sentence to look at.
    void emptyInput();
    /// The core refused the input (InputError) or ran out of memory: a message for people.
    void failed(const QString &message);
    void progress(int percent);
    /// After modelRunReady, for the same request: what its interventions (the workspace's
    /// ablations) changed, compared with the same job without them; null when it had none.
    void effectReady(std::shared_ptr<const headlens::AblationEffect> effect);
    /// A ranking asked for with submitRanking, after the trace of its run.
    void importanceReady(std::shared_ptr<const headlens::HeadImportance> importance);
    void patchingReady(std::shared_ptr<const headlens::PatchingMap> patching);
    /// The ranking asked for stopped before its end (cancelRanking or a newer submit).
    void rankingCancelled();
    /// The ranking's job was refused: the same message as failed().
    void rankingFailed(const QString &message);
    void rankingProgress(int percent);
    /// After traceReady, while a compare text is set: A's trace and B's.
    void comparisonReady(std::shared_ptr<const headlens::ComparedRuns> runs);
    /// B's run was refused (its text, or memory): a message for people; A's trace stands.
    void comparisonFailed(const QString &message);
    void busyChanged(bool busy);

private:
    void start();
    void work(quint64 generation, const TraceJob &job, const ComparisonRequest &b);
    /// Runs in the worker after A's trace: B's run and its delivery (or why it failed).
    void compare(quint64 generation, const TraceJob &job, const TraceRun &a,
                 const ComparisonRequest &b);
    /// The job's run, and the same job's without its interventions first (for effectReady).
    TraceRun runWithEffect(const TraceJob &job, const std::function<bool(double)> &progress,
                           std::shared_ptr<const AblationEffect> &effect);
    /// Makes run.trace freed off the UI thread.
    void deliver(quint64 generation, TraceRun &run, std::shared_ptr<const AblationEffect> effect);
    /// A newer request makes the ranking in flight obsolete: it says so.
    void dropRanking();
    void finish(quint64 generation);
    void analyse(quint64 generation, std::shared_ptr<const Trace> trace, AttentionWeights weights);
    void setBusy(bool busy);

    WorkerThread m_worker; ///< computes the traces
    QTimer m_debounce;
    QTimer m_poolTrim; ///< runs while idle; clears StoragePool when it fires
    int m_poolTrimDelay = 3000, m_longTextPoolHold = 30000; ///< see setPoolTrimDelays
    bool m_lastRunTiled = false; ///< whether the session's last run is a long text's; UI thread
    TraceJob m_pending;
    ComparisonRequest m_comparison; ///< see setComparison; UI thread only, copied into work()
    Tensor m_means;                 ///< see setMeanSource
    std::shared_ptr<const OpenedModel> m_meansModel;
    std::unique_ptr<Session> m_session; ///< used only in m_worker; keeps the opened model
    std::atomic<quint64> m_generation{0};
    std::atomic<bool> m_comparisonWanted{true}; ///< read in m_worker
    std::function<void()> m_traceComputedHook;  ///< see setTraceComputedHook; called in m_worker
    std::function<void(double)> m_progressHook; ///< see setProgressHook; called in m_worker
    /// The generation of the ranking asked for and not yet delivered; 0: none. UI thread only.
    quint64 m_rankingGeneration = 0;
    int m_inFlight = 0;
    bool m_busy = false;
};

} // namespace headlens
