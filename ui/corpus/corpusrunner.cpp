// CorpusRunner: the worker calls back through queued invocations guarded by the ticket.
#include "corpus/corpusrunner.h"
#include "runner/viewworkpool.h"
#include "runner/workerthread.h"

#include "attention/attentionforward.h"
#include "corpus/corpusrun.h"
#include "util/inputerror.h"

#include <QCoreApplication>
#include <QPointer>

namespace headlens {

CorpusRunner::CorpusRunner(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<headlens::CorpusSummary>("headlens::CorpusSummary");
}

CorpusRunner::~CorpusRunner()
{
    cancel();
}

void CorpusRunner::cancel()
{
    if (m_ticket)
        m_ticket->stop = true;
}

void CorpusRunner::start(std::shared_ptr<const OpenedModel> model, const QString &path)
{
    cancel();
    auto ticket = std::make_shared<Ticket>();
    m_ticket = ticket;
    m_running = true;
    QPointer<CorpusRunner> self(this);
    // Runs `deliver` on the owner's thread if this is still the newest run and the runner lives.
    // Queued on the application, which outlives the job, so that `self` is read on the UI thread,
    // where the runner is deleted, never on the pool's.
    auto report = [self, ticket](auto deliver) {
        queueOn(qApp, [self, ticket, deliver] {
            if (self && self->m_ticket == ticket)
                deliver(*self);
        });
    };
    const std::string file = path.toStdString();
    ViewWorkPool::start([model = std::move(model), file, ticket, report] {
        int lastPercent = -1;
        auto progress = [&](double fraction) {
            const int percent = int(fraction * 100.0);
            if (percent != lastPercent) {
                lastPercent = percent;
                report([fraction](CorpusRunner &r) { emit r.progressed(fraction); });
            }
            return !ticket->stop.load();
        };
        try {
            CorpusSummary summary = runCorpus(*model, file, {}, progress);
            report([summary = std::move(summary)](CorpusRunner &r) {
                r.m_running = false;
                emit r.finished(summary);
            });
        } catch (const Cancelled &) {
            report([](CorpusRunner &r) {
                r.m_running = false;
                emit r.cancelled();
            });
        } catch (const InputError &error) {
            report([message = QString::fromStdString(error.what())](CorpusRunner &r) {
                r.m_running = false;
                emit r.failed(message);
            });
        } catch (const std::bad_alloc &) {
            report([](CorpusRunner &r) {
                r.m_running = false;
                emit r.failed(CorpusRunner::tr("Out of memory: use a smaller model or corpus."));
            });
        }
    });
}

} // namespace headlens
