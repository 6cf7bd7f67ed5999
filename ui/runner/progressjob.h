// ProgressJob: one long computation over a file at a time, off the UI thread, with progress and
// Cancel.
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace headlens {

/// Runs a computation in ViewWorkPool and reports on the owner's thread: its progress, then its
/// result, the sentence of an InputError it threw, or that it was cancelled. A new start()
/// cancels the job before it; cancel() stops the current one at its next progress call. Only the
/// newest job reports, and nothing arrives once the ProgressJob is gone.
class ProgressJob : public QObject
{
    Q_OBJECT
public:
    /// The computation's progress callback: the fraction done, 0..1; false: stop (throw
    /// Cancelled).
    using Progress = std::function<bool(double)>;

    explicit ProgressJob(QObject *parent = nullptr);
    ~ProgressJob() override;

    /// Runs `compute(progress)` in the pool; `finish(result)` then runs on the owner's thread.
    /// `outOfMemory` is the failure's sentence when the computation runs out of memory.
    template <typename Compute, typename Finish>
    void start(Compute compute, Finish finish, const QString &outOfMemory)
    {
        launch(
            [compute = std::move(compute), finish = std::move(finish)](const Progress &progress) {
                auto result = std::make_shared<decltype(compute(progress))>(compute(progress));
                return std::function<void()>([finish, result] { finish(std::move(*result)); });
            },
            outOfMemory);
    }
    void cancel();
    /// Cancels the job and drops it: nothing of it arrives any more (not even `cancelled`), as
    /// when what it was computing for is gone (another model).
    void forget();
    bool isRunning() const { return m_running; }

signals:
    /// The fraction of the job done, 0..1, at most once per percent.
    void progressed(double fraction);
    /// A sentence saying what is wrong with the input, and what to do.
    void failed(const QString &message);
    void cancelled();

private:
    /// The computation, returning what delivers its result on the owner's thread.
    using Work = std::function<std::function<void()>(const Progress &)>;
    void launch(Work work, const QString &outOfMemory);

    /// What one job shares with its worker: its stop flag.
    struct Ticket
    {
        std::atomic<bool> stop{false};
    };
    std::shared_ptr<Ticket> m_ticket;
    bool m_running = false;
};

} // namespace headlens
