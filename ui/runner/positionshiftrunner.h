// PositionShiftRunner: RoPE's shift check (a second forward pass) in ViewWorkPool.
#pragma once

#include "attention/positionshift.h"
#include "runner/traceanalysis.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace headlens {

/// What one check found, for the trace it was made from.
struct PositionShiftResult
{
    std::shared_ptr<const Trace> trace;
    PositionShiftCheck check;
    QString error;          ///< why the shifted pass was refused (InputError); empty if it ran
    bool cancelled = false; ///< a newer request made it obsolete
};

/// Checks checkPositionShift for the newest analysis (trace + the weights it used) and the
/// newest shift, while someone looks (setWanted). A newer request cancels the running pass
/// through TraceOptions::progress, and only a result for the newest request is delivered, so
/// the UI thread never computes attention and never waits.
class PositionShiftRunner : public QObject
{
    Q_OBJECT
public:
    explicit PositionShiftRunner(QObject *parent = nullptr);
    ~PositionShiftRunner() override;

    void setAnalysis(std::shared_ptr<const TraceAnalysis> analysis);
    void setShift(int shift);
    /// Only while the RoPE panel is on screen: the check costs a whole forward pass.
    void setWanted(bool wanted);
    bool isBusy() const { return m_running; }

signals:
    void checked(const headlens::PositionShiftResult &result);

private:
    void schedule();
    void start();
    void onFinished();

    std::shared_ptr<const TraceAnalysis> m_analysis;
    int m_shift = 0;
    bool m_wanted = false;
    bool m_running = false;
    /// The request last delivered, so that showing the panel again does not repeat it (weak:
    /// it must not keep an old trace in memory).
    std::weak_ptr<const Trace> m_deliveredTrace;
    int m_deliveredShift = -1;
    std::shared_ptr<std::atomic<quint64>> m_generation;
    QFutureWatcher<PositionShiftResult> *m_watcher = nullptr;
};

} // namespace headlens
