// CorpusRunner: runCorpus in ViewWorkPool, with progress, Cancel and one run at a time.
#pragma once

#include "corpus/corpussummary.h"
#include "model/openedmodel.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace headlens {

/// Starts a corpus run off the UI thread and reports on the owner's thread. A new start()
/// cancels the run before it; cancel() stops the current one within one text. Only the newest
/// run's signals arrive.
class CorpusRunner : public QObject
{
    Q_OBJECT
public:
    explicit CorpusRunner(QObject *parent = nullptr);
    ~CorpusRunner() override;

    void start(std::shared_ptr<const OpenedModel> model, const QString &path);
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    /// The fraction of the corpus done, 0..1.
    void progressed(double fraction);
    void finished(const headlens::CorpusSummary &summary);
    /// A message saying what is wrong with the file or a line of it, and what to do.
    void failed(const QString &message);
    void cancelled();

private:
    /// What one run shares with its worker: its stop flag, and whether it still reports.
    struct Ticket
    {
        std::atomic<bool> stop{false};
    };
    std::shared_ptr<Ticket> m_ticket;
    bool m_running = false;
};

} // namespace headlens
