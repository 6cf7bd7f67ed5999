// TraceRunner: generations, cancellation and the hand-over between the worker and the UI thread.
#include "runner/tracerunner.h"

#include "attention/attentionforward.h"
#include "attention/implementations.h"
#include "runner/jobbuilder.h"
#include "runner/releasedoffthread.h"
#include "session/session.h"
#include "tensor/storagepool.h"
#include "util/inputerror.h"

#include <new>

namespace headlens {

TraceRunner::TraceRunner(QObject *parent)
    : QObject(parent), m_worker("headlens-trace"), m_session(std::make_unique<Session>())
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(0);
    connect(&m_debounce, &QTimer::timeout, this, &TraceRunner::start);
    m_poolTrim.setSingleShot(true);
    m_poolTrim.setInterval(3000);
    connect(&m_poolTrim, &QTimer::timeout, this, [] { StoragePool::instance().clear(); });
}

TraceRunner::~TraceRunner()
{
    ++m_generation; // cancels the running computation at its next progress call
    m_worker.stop();
}

void TraceRunner::submit(const WorkspaceState &state, const ModelSource &model)
{
    ++m_generation; // whatever runs now is obsolete
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
    m_debounce.start();
    setBusy(true);
}

void TraceRunner::start()
{
    const quint64 generation = m_generation.load();
    ++m_inFlight;
    m_worker.run([this, generation, job = m_pending] { work(generation, job); });
}

// Runs in the worker thread; talks back only through queued calls.
void TraceRunner::work(quint64 generation, const TraceJob &job)
{
    if (generation != m_generation.load()) {
        queueOn(this, [this, generation] { finish(generation); });
        return;
    }
    int lastPercent = -1;
    auto onProgress = [&](double fraction) {
        const int percent = int(fraction * 100.0);
        if (percent != lastPercent) {
            lastPercent = percent;
            queueOn(this, [this, generation, percent] {
                if (generation == m_generation.load())
                    emit progress(percent);
            });
        }
        return generation == m_generation.load();
    };
    try {
        // A model is opened here, off the UI thread, and kept by the session for the next job.
        TraceRun run = m_session->run(job, onProgress);
        std::shared_ptr<const Trace> trace = std::move(run.trace);
        std::shared_ptr<const ModelRun> model = std::move(run.model);
        if (m_traceComputedHook)
            m_traceComputedHook();
        const int64_t bytes = trace->bytes();
        trace = releasedOffThread(std::move(trace), bytes);
        queueOn(this, [this, generation, trace, model] {
            if (generation != m_generation.load())
                return;
            emit traceReady(trace);
            emit modelRunReady(model);
        });
        analyse(generation, trace, std::move(run.parameters));
        return;
    } catch (const Cancelled &) {
    } catch (const InputError &error) {
        const QString message = QString::fromStdString(error.what());
        queueOn(this, [this, generation, message] {
            if (generation == m_generation.load())
                emit failed(message);
        });
    } catch (const std::bad_alloc &) {
        queueOn(this, [this, generation] {
            if (generation == m_generation.load())
                emit failed(tr("Not enough memory for these sizes. Try fewer tokens or heads."));
        });
    } catch (const std::exception &error) {
        const QString message = tr("Something went wrong: %1").arg(error.what());
        queueOn(this, [this, generation, message] {
            if (generation == m_generation.load())
                emit failed(message);
        });
    }
    queueOn(this, [this, generation] { finish(generation); });
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
        m_poolTrim.start();
    emit busyChanged(busy);
}

} // namespace headlens
