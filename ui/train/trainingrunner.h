// TrainingRunner: trains a toy model in a worker thread, in short chunks, so the window never
// waits.
#pragma once

#include "runner/workerthread.h"
#include "train/trainingreport.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace headlens {

/// Owns one Trainer, which lives in (and is only touched by) its worker thread. Every command
/// is queued to the worker; training runs as a chain of chunks of about kChunkSeconds each, so
/// pause(), reset() and restart() take effect within one chunk. Like TraceRunner, the newest
/// command wins: a result of a run that was since replaced is dropped, never shown.
/// Reports (evaluate() + snapshot()) are throttled to a few per second while training, and one
/// is always sent when a run starts, stops or is loaded, so a paused view is exact.
class TrainingRunner : public QObject
{
    Q_OBJECT
public:
    static constexpr double kChunkSeconds = 0.06;
    /// A report after kReportSteps steps or kReportSeconds, whichever comes first (so a fast
    /// run still draws a curve), but never more often than every kMinReportSeconds.
    static constexpr double kReportSeconds = 0.15;
    static constexpr double kMinReportSeconds = 0.01;
    static constexpr int kReportSteps = 25;
    static constexpr double kTextReportSeconds = 1.0;
    static constexpr int kSampleEvery = 4;
    static constexpr int kSampleTokens = 100;

    explicit TrainingRunner(QObject *parent = nullptr);
    ~TrainingRunner() override;

    /// A fresh run (step 0, paused). Precondition: settings.validate() is empty.
    void restart(const TrainingSettings &settings);
    /// A fresh language model on `text` (step 0, paused); a problem with the text or the
    /// settings arrives as failed(). Its reports carry the copying test and, every
    /// kSampleEvery reports, a sample; they come every kTextReportSeconds (a report reads
    /// 6,000 tokens, a tenth of a second of training).
    void restartOnText(const TrainingSettings &settings, std::shared_ptr<const TextBatches> text);
    /// Continues from a saved model (paused at its step count).
    void load(const TrainedModel &model);
    /// Back to step 0 with the same initial weights (paused).
    void reset();
    /// Trains until `goal` steps have been taken in total, then stops by itself.
    void trainUntil(int64_t goal);
    void pause();
    /// A pace a class can follow (0, the default: as fast as the machine goes). At `rate`
    /// steps a second the worker trains max(1, rate / 10) steps, reports them, and waits (on
    /// a timer of the window's thread, so commands still reach the worker) until their time
    /// is up. Takes effect from the next chunk.
    void setStepsPerSecond(int rate);
    int stepsPerSecond() const { return m_rate.load(); }

    bool isRunning() const { return m_running; }
    /// Running, or the worker still has a command (or the final report) to deliver.
    bool isBusy() const { return m_running || m_inFlight > 0; }

signals:
    /// After every chunk: the training loss and accuracy over it.
    void stepped(const headlens::TrainingMetrics &metrics);
    void reported(std::shared_ptr<const headlens::TrainingReport> report);
    void runningChanged(bool running);
    /// Out of memory or a file the core refused: a sentence for people.
    void failed(const QString &message);

private:
    void queue(std::function<void()> command);
    void chunk(quint64 generation, quint64 chain, int steps, double sinceReport,
               int stepsSinceReport);
    /// `stopped`: the run paused or reached its goal, so the report also carries a sample
    /// (else one report in kSampleEvery does): the text a person reads then is the model's
    /// as it stands.
    void report(quint64 generation, bool stopped = false);
    void queueAfter(int milliseconds, quint64 generation, quint64 chain);
    void finish();
    void setRunning(bool running);

    WorkerThread m_worker;                ///< runs the commands, one at a time
    std::unique_ptr<Trainer> m_trainer;   ///< touched only in m_worker
    std::atomic<quint64> m_generation{0}; ///< changes when the run is replaced or reset
    std::atomic<quint64> m_chain{0};      ///< changes when training starts or stops
    std::atomic<int64_t> m_goal{0};
    std::atomic<int> m_rate{0}; ///< steps per second; 0: full speed
    int m_inFlight = 0;
    int m_reportsSinceSample = 0;     ///< touched only in m_worker
    double m_lastReportSeconds = 0.0; ///< the last report's cost; touched only in m_worker
    bool m_running = false;
};

} // namespace headlens
