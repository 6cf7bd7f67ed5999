// PositionShiftRunner: one promise at a time; a newer request cancels it and starts when it ends.
#include "runner/positionshiftrunner.h"
#include "runner/pooledresult.h"

#include "util/inputerror.h"

namespace headlens {

namespace {

PositionShiftResult runCheck(std::shared_ptr<const TraceAnalysis> analysis, int shift,
                             std::shared_ptr<std::atomic<quint64>> generation, quint64 mine)
{
    PositionShiftResult result;
    result.trace = analysis->trace;
    TraceOptions options;
    options.progress = [generation, mine](double) { return generation->load() == mine; };
    try {
        result.check = checkPositionShift(*analysis->trace, analysis->parameters, shift, options);
    } catch (const Cancelled &) {
        result.cancelled = true;
    } catch (const std::exception &error) { // InputError, or no memory for a second trace
        result.error = QString::fromStdString(error.what());
    }
    result.check.shift = shift;
    return result;
}

} // namespace

PositionShiftRunner::PositionShiftRunner(QObject *parent)
    : QObject(parent), m_generation(std::make_shared<std::atomic<quint64>>(0))
{
    m_watcher = new PooledWatcher<PositionShiftResult>(this);
    connect(m_watcher, &QFutureWatcherBase::finished, this, &PositionShiftRunner::onFinished);
}

PositionShiftRunner::~PositionShiftRunner()
{
    ++*m_generation; // a pass still running stops at its next progress call
}

void PositionShiftRunner::setAnalysis(std::shared_ptr<const TraceAnalysis> analysis)
{
    m_analysis = std::move(analysis);
    schedule();
}

void PositionShiftRunner::setShift(int shift)
{
    m_shift = shift;
    schedule();
}

void PositionShiftRunner::setWanted(bool wanted)
{
    m_wanted = wanted;
    schedule();
}

void PositionShiftRunner::schedule()
{
    if (!m_wanted || !m_analysis || !m_analysis->trace || !m_analysis->trace->config.usesRope())
        return;
    if (m_analysis->trace == m_deliveredTrace.lock() && m_shift == m_deliveredShift)
        return;
    if (m_running) {
        ++*m_generation; // obsolete: onFinished starts the newest request
        return;
    }
    start();
}

void PositionShiftRunner::start()
{
    m_running = true;
    const quint64 mine = ++*m_generation;
    startPooled(m_watcher,
                [analysis = m_analysis, shift = m_shift, generation = m_generation,
                 mine]() -> std::optional<PositionShiftResult> {
                    return runCheck(analysis, shift, generation, mine);
                });
}

void PositionShiftRunner::onFinished()
{
    m_running = false;
    if (const std::optional<PositionShiftResult> taken = takePooledResult(m_watcher)) {
        const PositionShiftResult &result = *taken;
        const bool newest = m_analysis && result.trace == m_analysis->trace &&
                            result.check.shift == m_shift && !result.cancelled;
        if (newest) {
            m_deliveredTrace = result.trace;
            m_deliveredShift = result.check.shift;
            emit checked(result);
        }
    }
    schedule();
}

} // namespace headlens
