// TrainingRunner: the chunk loop, its timing, and the hand-over between the worker and the window.
#include "train/trainingrunner.h"

#include "train/tokensampler.h"
#include "util/inputerror.h"

#include <QTimer>

#include <algorithm>
#include <chrono>
#include <new>

namespace headlens {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

QString messageFor(const std::exception &error)
{
    if (dynamic_cast<const std::bad_alloc *>(&error))
        return TrainingRunner::tr("Not enough memory to train this model. Try a smaller d_model, "
                                  "fewer heads or a smaller batch.");
    if (dynamic_cast<const InputError *>(&error))
        return QString::fromStdString(error.what());
    return TrainingRunner::tr("Training stopped: %1").arg(error.what());
}

} // namespace

TrainingRunner::TrainingRunner(QObject *parent) : QObject(parent), m_worker("headlens-train") {}

TrainingRunner::~TrainingRunner()
{
    ++m_generation; // the chunk running now is the last one
    ++m_chain;
    m_worker.stop();
}

// Runs `command` in the worker, then tells the window it is done (isBusy()).
void TrainingRunner::queue(std::function<void()> command)
{
    ++m_inFlight;
    m_worker.run([this, command = std::move(command)] {
        try {
            command();
        } catch (const std::exception &error) {
            const QString message = messageFor(error);
            queueOn(this, [this, message] { emit failed(message); });
        }
        queueOn(this, [this] { finish(); });
    });
}

void TrainingRunner::restart(const TrainingSettings &settings)
{
    const quint64 generation = ++m_generation;
    ++m_chain;
    setRunning(false);
    queue([this, generation, settings] {
        m_trainer = std::make_unique<Trainer>(settings);
        report(generation);
    });
}

void TrainingRunner::restartOnText(const TrainingSettings &settings,
                                   std::shared_ptr<const TextBatches> text)
{
    const quint64 generation = ++m_generation;
    ++m_chain;
    setRunning(false);
    queue([this, generation, settings, text] {
        m_trainer.reset(); // a refused text leaves no run of the settings before
        m_trainer = std::make_unique<Trainer>(settings, text);
        m_reportsSinceSample = kSampleEvery; // a sample with the first report
        report(generation);
    });
}

void TrainingRunner::load(const TrainedModel &model)
{
    const quint64 generation = ++m_generation;
    ++m_chain;
    setRunning(false);
    queue([this, generation, model] {
        m_trainer = std::make_unique<Trainer>(model);
        report(generation);
    });
}

void TrainingRunner::reset()
{
    const quint64 generation = ++m_generation;
    ++m_chain;
    setRunning(false);
    queue([this, generation] {
        if (!m_trainer)
            return;
        m_trainer->reset();
        report(generation);
    });
}

void TrainingRunner::pause()
{
    if (!m_running)
        return;
    ++m_chain;
    setRunning(false);
    const quint64 generation = m_generation.load();
    queue([this, generation] {
        if (m_trainer)
            report(generation, true); // the exact state the training stopped at
    });
}

void TrainingRunner::setStepsPerSecond(int rate)
{
    m_rate = std::max(rate, 0);
}

void TrainingRunner::trainUntil(int64_t goal)
{
    const quint64 chain = ++m_chain;
    const quint64 generation = m_generation.load();
    m_goal = goal;
    setRunning(true);
    ++m_inFlight;
    m_worker.run([this, generation, chain] { chunk(generation, chain, 1, 0.0, 0); });
}

// Runs in the worker: one chunk of steps, sized to last about kChunkSeconds, then queues the
// next one behind whatever command the window sent meanwhile.
void TrainingRunner::chunk(quint64 generation, quint64 chain, int steps, double sinceReport,
                           int stepsSinceReport)
{
    if (generation != m_generation.load() || chain != m_chain.load() || !m_trainer) {
        queueOn(this, [this] { finish(); });
        return;
    }
    const int64_t left = m_goal.load() - m_trainer->stepsDone();
    const int rate = m_rate.load();
    const auto start = Clock::now();
    try {
        int taken = 0;
        if (left > 0) {
            taken = int(std::min<int64_t>(rate > 0 ? std::max(1, rate / 10) : steps, left));
            stepsSinceReport += taken;
            const TrainingMetrics metrics = m_trainer->step(taken);
            queueOn(this, [this, generation, metrics] {
                if (generation == m_generation.load())
                    emit stepped(metrics);
            });
        }
        const double took = secondsSince(start);
        const bool done = m_trainer->stepsDone() >= m_goal.load();
        sinceReport += took;
        const bool text = m_trainer->text() != nullptr;
        // A language model's report reads thousands of tokens: on a slow machine (or a
        // sanitizer's build) it would take most of the time, so it comes after at least four
        // times its own cost in training.
        const double every =
            text ? std::max(kTextReportSeconds, 4.0 * m_lastReportSeconds) : kReportSeconds;
        if (done || rate > 0 || sinceReport >= every ||
            (!text && stepsSinceReport >= kReportSteps && sinceReport >= kMinReportSeconds)) {
            report(generation, done); // watched: every chunk, so each step taken shows
            sinceReport = 0.0;
            stepsSinceReport = 0;
        }
        if (done) {
            queueOn(this, [this, chain] {
                if (chain == m_chain.load())
                    setRunning(false);
                finish();
            });
            return;
        }
        if (rate > 0) {
            queueAfter(std::max(0, int(1000.0 * taken / rate - 1000.0 * took)), generation, chain);
            return;
        }
        const double perStep = std::max(took, 1e-6) / std::max(steps, 1);
        const int next = std::clamp(int(kChunkSeconds / perStep), 1, std::max(2 * steps, 2));
        m_worker.run([this, generation, chain, next, sinceReport, stepsSinceReport] {
            chunk(generation, chain, std::min(next, kReportSteps), sinceReport, stepsSinceReport);
        });
    } catch (const std::exception &error) {
        const QString message = messageFor(error);
        queueOn(this, [this, chain, message] {
            if (chain == m_chain.load())
                setRunning(false);
            emit failed(message);
            finish();
        });
    }
}

// Runs in the worker: the next watched chunk, after `milliseconds` on the window's timer. The
// worker stays free meanwhile; a pause or restart in the wait ends the chain at that chunk.
void TrainingRunner::queueAfter(int milliseconds, quint64 generation, quint64 chain)
{
    queueOn(this, [this, milliseconds, generation, chain] {
        QTimer::singleShot(milliseconds, this, [this, generation, chain] {
            m_worker.run([this, generation, chain] { chunk(generation, chain, 1, 0.0, 0); });
        });
    });
}

// Runs in the worker: evaluate() and snapshot() of the model as it is now.
void TrainingRunner::report(quint64 generation, bool stopped)
{
    if (generation != m_generation.load())
        return;
    const auto start = Clock::now();
    auto report = std::make_shared<TrainingReport>();
    report->evaluation = m_trainer->evaluate();
    report->snapshot = m_trainer->snapshot(m_trainer->text() ? Trainer::kTextProbeTokens : 0);
    report->model = std::make_shared<const TrainedModel>(m_trainer->trainedModel());
    report->seconds = m_trainer->secondsTrained();
    if (m_trainer->text()) {
        report->inContext = m_trainer->inContext();
        if (++m_reportsSinceSample >= kSampleEvery || stopped) {
            m_reportsSinceSample = 0;
            report->sample = sampleTokens(m_trainer->model(), report->snapshot.tokens,
                                          kSampleTokens, 0.8f, uint64_t(m_trainer->stepsDone()));
        }
    }
    m_lastReportSeconds = secondsSince(start);
    std::shared_ptr<const TrainingReport> result = std::move(report);
    queueOn(this, [this, generation, result] {
        if (generation == m_generation.load())
            emit reported(result);
    });
}

void TrainingRunner::finish()
{
    --m_inFlight;
}

void TrainingRunner::setRunning(bool running)
{
    if (running == m_running)
        return;
    m_running = running;
    emit runningChanged(running);
}

} // namespace headlens
