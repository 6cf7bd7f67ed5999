// ProgressJob: the worker calls back through queued invocations guarded by the job's ticket.
#include "runner/progressjob.h"

#include "runner/viewworkpool.h"
#include "runner/workerthread.h"

#include "attention/attentionforward.h"
#include "util/inputerror.h"

#include <QCoreApplication>
#include <QPointer>

namespace headlens {

ProgressJob::ProgressJob(QObject *parent) : QObject(parent) {}

ProgressJob::~ProgressJob()
{
    cancel();
}

void ProgressJob::cancel()
{
    if (m_ticket)
        m_ticket->stop = true;
}

void ProgressJob::forget()
{
    cancel();
    m_ticket.reset();
    m_running = false;
}

void ProgressJob::launch(Work work, const QString &outOfMemory)
{
    cancel();
    auto ticket = std::make_shared<Ticket>();
    m_ticket = ticket;
    m_running = true;
    QPointer<ProgressJob> self(this);
    // Runs `deliver` on the owner's thread if this is still the newest job and the ProgressJob
    // lives. Queued on the application, which outlives the job, so that `self` is read on the
    // UI thread, where the ProgressJob is deleted, never on the pool's.
    auto report = [self, ticket](auto deliver) {
        queueOn(qApp, [self, ticket, deliver] {
            if (self && self->m_ticket == ticket)
                deliver(*self);
        });
    };
    ViewWorkPool::start([work = std::move(work), ticket, report, outOfMemory] {
        int lastPercent = -1;
        auto progress = [&](double fraction) {
            const int percent = int(fraction * 100.0);
            if (percent != lastPercent) {
                lastPercent = percent;
                report([fraction](ProgressJob &job) { emit job.progressed(fraction); });
            }
            return !ticket->stop.load();
        };
        try {
            std::function<void()> finish = work(progress);
            report([finish = std::move(finish)](ProgressJob &job) {
                job.m_running = false;
                finish();
            });
        } catch (const Cancelled &) {
            report([](ProgressJob &job) {
                job.m_running = false;
                emit job.cancelled();
            });
        } catch (const InputError &error) {
            report([message = QString::fromStdString(error.what())](ProgressJob &job) {
                job.m_running = false;
                emit job.failed(message);
            });
        } catch (const std::bad_alloc &) {
            report([outOfMemory](ProgressJob &job) {
                job.m_running = false;
                emit job.failed(outOfMemory);
            });
        }
    });
}

} // namespace headlens
