// TraceRunner: generations, cancellation and the hand-over between the worker and the UI thread.
#include "runner/tracerunner.h"

#include "attention/attentionforward.h"
#include "attention/implementations.h"
#include "runner/jobbuilder.h"
#include "runner/releasedoffthread.h"
#include "runner/viewworkpool.h"
#include "session/comparisonjob.h"
#include "session/session.h"
#include "tensor/storagepool.h"
#include "util/inputerror.h"

#include <new>

namespace headlens {

namespace {

/// The views other than the Long text tab draw from every head's matrix and a traced layer,
/// which a tiled run does not keep (TiledAttention): what they say instead of drawing.
std::string tiledRunRefusal(const ModelRun &run)
{
    return TiledAttention::refusal("The Heads, Pipeline and Model tabs draw every head's whole "
                                   "matrix and a traced layer",
                                   run.layers, run.heads, int64_t(run.tokenIds.size())) +
           " The Long text tab draws it from its tiles; the other tabs draw texts of up to " +
           std::to_string(TiledAttention::longestWhole(run.layers, run.heads)) +
           " tokens with this model.";
}

} // namespace

TraceRunner::TraceRunner(QObject *parent)
    : QObject(parent), m_worker("headlens-trace"), m_session(std::make_unique<Session>())
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(0);
    connect(&m_debounce, &QTimer::timeout, this, &TraceRunner::start);
    m_poolTrim.setSingleShot(true);
    // Unmapping the idle blocks of 1,024-token traces took the UI thread 0.4 s over one
    // model_window run (perf): they are freed in ViewWorkPool (here only once it is gone).
    connect(&m_poolTrim, &QTimer::timeout, this, [] {
        if (!ViewWorkPool::start([] { StoragePool::instance().clear(); }))
            StoragePool::instance().clear();
    });
}

TraceRunner::~TraceRunner()
{
    ++m_generation; // cancels the running computation at its next progress call
    m_worker.stop();
}

void TraceRunner::submit(const WorkspaceState &state, const ModelSource &model)
{
    ++m_generation; // whatever runs now is obsolete
    dropRanking();
    m_debounce.stop();
    const bool builtIn = !model.isModel() && state.modelPath.isEmpty();
    if (auto problem = state.config.validate(); problem && builtIn) {
        setBusy(m_inFlight > 0);
        emit invalid(*problem);
        return;
    }
    std::optional<TraceJob> job = JobBuilder::jobFor(state, model);
    if (!job) {
        setBusy(m_inFlight > 0);
        emit emptyInput();
        return;
    }
    m_pending = std::move(*job);
    // A model's corpus means; the session keeps them only for the model they were measured on
    // (TraceJob::meanSourceModel).
    if (m_pending.model.isModel()) {
        m_pending.interventions.meanSource = m_means;
        m_pending.meanSourceModel = m_meansModel;
    }
    m_debounce.start();
    setBusy(true);
}

bool TraceRunner::submitRanking(const WorkspaceState &state, const ModelSource &model,
                                const RankingRequest &ranking)
{
    submit(state, model);
    if (!m_debounce.isActive())
        return false; // refused at once: invalid() or emptyInput() said why
    m_pending.ranking = ranking;
    m_rankingGeneration = m_generation.load();
    return true;
}

void TraceRunner::cancelRanking()
{
    if (!isRanking())
        return;
    ++m_generation;
    dropRanking();
    m_pending.ranking = {};
    m_debounce.start();
    setBusy(true);
}

void TraceRunner::dropRanking()
{
    if (m_rankingGeneration == 0)
        return;
    m_rankingGeneration = 0;
    emit rankingCancelled();
}

void TraceRunner::start()
{
    const quint64 generation = m_generation.load();
    ++m_inFlight;
    m_worker.run(
        [this, generation, job = m_pending, b = m_comparison] { work(generation, job, b); });
}

// Runs in the worker thread; talks back only through queued calls.
void TraceRunner::work(quint64 generation, const TraceJob &job, const ComparisonRequest &b)
{
    if (generation != m_generation.load()) {
        queueOn(this, [this, generation] { finish(generation); });
        return;
    }
    int lastPercent = -1;
    auto onProgress = [&](double fraction) {
        if (m_progressHook)
            m_progressHook(fraction);
        const int percent = int(fraction * 100.0);
        if (percent != lastPercent) {
            lastPercent = percent;
            queueOn(this, [this, generation, percent] {
                if (generation != m_generation.load())
                    return;
                emit progress(percent);
                if (generation == m_rankingGeneration)
                    emit rankingProgress(percent);
            });
        }
        return generation == m_generation.load();
    };
    QString message;
    try {
        // A model is opened here, off the UI thread, and kept by the session for the next job.
        std::shared_ptr<const AblationEffect> effect;
        TraceRun run = runWithEffect(job, onProgress, effect);
        if (run.model && run.model->tiled()) {
            queueOn(this, [this, generation, model = run.model] {
                m_lastRunTiled = true; // the session keeps it, current or not
                if (generation == m_generation.load())
                    emit tiledRunReady(model);
            });
            throw InputError(tiledRunRefusal(*run.model));
        }
        if (m_traceComputedHook)
            m_traceComputedHook();
        deliver(generation, run, std::move(effect));
        // Model B, as large as A, goes once no comparison of models asks for it (the tab hidden,
        // or another kind of B); letting an empty slot go costs nothing.
        if (!b.wanted() || b.change != ComparedChange::Model)
            m_session->releaseSecondModel();
        if (b.wanted())
            compare(generation, job, run, b);
        analyse(generation, std::move(run.trace), std::move(run.parameters));
        return;
    } catch (const Cancelled &) {
        queueOn(this, [this, generation] { finish(generation); });
        return;
    } catch (const InputError &error) {
        message = QString::fromStdString(error.what());
    } catch (const std::bad_alloc &) {
        message = tr("Not enough memory for these sizes. Try fewer tokens or heads.");
    } catch (const std::exception &error) {
        message = tr("Something went wrong: %1").arg(error.what());
    }
    queueOn(this, [this, generation, message] {
        if (generation == m_generation.load()) {
            emit failed(message);
            if (generation == m_rankingGeneration) {
                m_rankingGeneration = 0;
                emit rankingFailed(message);
            }
        }
        finish(generation);
    });
}

// Runs in the worker. The unchanged job first, not kept: the session keeps the changed run,
// which the next job retraces (another layer of the same ablated model) or extends (the text
// typed on).
TraceRun TraceRunner::runWithEffect(const TraceJob &job,
                                    const std::function<bool(double)> &progress,
                                    std::shared_ptr<const AblationEffect> &effect)
{
    if (job.interventions.empty())
        return m_session->run(job, progress);
    TraceJob unchangedJob = job;
    unchangedJob.interventions = {};
    unchangedJob.ranking = {};
    unchangedJob.keepForNext = false;
    // Only its predictions are kept: the whole unchanged run beside the changed one and the
    // run the views show was the window's peak (a third run, about 1 GiB at 1,024 tokens).
    const TraceRun unchanged =
        AblationEffect::baselineOf(m_session->run(unchangedJob, [&progress](double) {
            return progress(0.0); // asks whether to go on, shows nothing yet
        }));
    TraceRun run = m_session->run(job, progress);
    effect = std::make_shared<const AblationEffect>(AblationEffect::between(unchanged, run));
    return run;
}

// Runs in the worker; hands the run's parts to the UI thread, where an obsolete one is dropped.
void TraceRunner::deliver(quint64 generation, TraceRun &run,
                          std::shared_ptr<const AblationEffect> effect)
{
    const int64_t bytes = run.trace->bytes();
    run.trace = releasedOffThread(std::move(run.trace), bytes);
    std::shared_ptr<const Trace> trace = run.trace;
    std::shared_ptr<const ModelRun> model = run.model;
    std::shared_ptr<const HeadImportance> importance = run.importance;
    std::shared_ptr<const PatchingMap> patching = run.patching;
    queueOn(this, [this, generation, trace, model, effect, importance, patching] {
        m_lastRunTiled = false;
        if (generation != m_generation.load())
            return;
        emit traceReady(trace);
        emit modelRunReady(model);
        emit effectReady(effect);
        if (generation != m_rankingGeneration)
            return;
        m_rankingGeneration = 0;
        if (importance)
            emit importanceReady(importance);
        if (patching)
            emit patchingReady(patching);
    });
}

// Runs in the worker. A's job again with B's text or one changed setting, so B has A's other
// settings, model and ablations; a newer request cancels it like any pass. B's failure is the
// Compare tab's, not A's.
void TraceRunner::compare(quint64 generation, const TraceJob &job, const TraceRun &a,
                          const ComparisonRequest &b)
{
    QString message;
    try {
        TraceRun runB = m_session->run(comparisonJob(job, b),
                                       [&](double) { return generation == m_generation.load(); });
        if (b.change == ComparedChange::Model)
            if (const auto problem = modelComparisonProblem(*a.model, *runB.model))
                throw InputError(*problem);
        const int64_t bytes = runB.trace->bytes();
        auto runs = std::make_shared<ComparedRuns>();
        runs->a = a.trace;
        runs->b = releasedOffThread(std::move(runB.trace), bytes);
        if (b.change == ComparedChange::Model) {
            runs->modelA = a.model;
            runs->modelB = std::move(runB.model);
            runs->modelHeads =
                AttentionDifference::perHead(runs->modelA->attention, runs->modelB->attention);
        }
        runs->request = b;
        runs->description = QString::fromStdString(describeComparison(job, b));
        std::shared_ptr<const ComparedRuns> result = std::move(runs);
        queueOn(this, [this, generation, result] {
            if (generation == m_generation.load())
                emit comparisonReady(result);
        });
        return;
    } catch (const Cancelled &) {
        return;
    } catch (const InputError &error) {
        message = QString::fromStdString(error.what());
    } catch (const std::bad_alloc &) {
        message = tr("Not enough memory for B as well. Try a shorter text.");
    } catch (const std::exception &error) {
        message = tr("Something went wrong with B: %1").arg(error.what());
    }
    queueOn(this, [this, generation, message] {
        if (generation == m_generation.load())
            emit comparisonFailed(message);
    });
}

// Runs in the worker thread after the trace: the weights and, while the pipeline view is shown,
// the comparison it draws. Skipped when a newer request is already waiting (newest wins).
void TraceRunner::analyse(quint64 generation, std::shared_ptr<const Trace> trace,
                          AttentionWeights weights)
{
    if (generation == m_generation.load()) {
        try {
            auto analysis = std::make_shared<TraceAnalysis>();
            if (m_comparisonWanted) {
                analysis->comparison = compareImplementations(*trace, weights);
                analysis->compared = true;
            }
            analysis->trace = std::move(trace);
            analysis->parameters = std::move(weights);
            std::shared_ptr<const TraceAnalysis> result = std::move(analysis);
            queueOn(this, [this, generation, result] {
                if (generation == m_generation.load())
                    emit analysisReady(result);
            });
        } catch (const std::exception &) {
            // The trace stands on its own; the pipeline view says the comparison is missing.
        }
    }
    queueOn(this, [this, generation] { finish(generation); });
}

void TraceRunner::finish(quint64)
{
    --m_inFlight;
    setBusy(m_inFlight > 0 || m_debounce.isActive());
}

void TraceRunner::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    if (busy)
        m_poolTrim.stop();
    else
        m_poolTrim.start(m_lastRunTiled ? std::max(m_poolTrimDelay, m_longTextPoolHold)
                                        : m_poolTrimDelay);
    emit busyChanged(busy);
}

} // namespace headlens
