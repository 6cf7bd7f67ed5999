// TokenizingRunner: TrainingTokens::bpe in the view pool, answered through the application.
#include "train/tokenizingrunner.h"

#include "runner/viewworkpool.h"
#include "runner/workerthread.h"
#include "util/inputerror.h"

#include <QCoreApplication>
#include <QPointer>

namespace headlens {

TokenizingRunner::TokenizingRunner(QObject *parent) : QObject(parent) {}

void TokenizingRunner::start(std::shared_ptr<const std::string> text, int bpeVocabulary)
{
    const uint64_t request = ++m_request;
    if (bpeVocabulary <= 0) {
        m_running = false;
        emit finished(std::make_shared<const TrainingTokens>(TrainingTokens::bytes(*text)));
        return;
    }
    m_running = true;
    QPointer<TokenizingRunner> self(this);
    // Runs `deliver` on the UI thread if this is still the newest request and the runner
    // lives; queued on the application, which outlives the job, so `self` is read there.
    auto report = [self, request](auto deliver) {
        queueOn(qApp, [self, request, deliver] {
            if (self && self->m_request == request) {
                self->m_running = false;
                deliver(*self);
            }
        });
    };
    ViewWorkPool::start([text = std::move(text), bpeVocabulary, report] {
        try {
            auto tokens =
                std::make_shared<const TrainingTokens>(TrainingTokens::bpe(*text, bpeVocabulary));
            report([tokens](TokenizingRunner &r) { emit r.finished(tokens); });
        } catch (const InputError &error) {
            report([message = QString::fromStdString(error.what())](TokenizingRunner &r) {
                emit r.failed(message);
            });
        } catch (const std::bad_alloc &) {
            report([](TokenizingRunner &r) {
                emit r.failed(TokenizingRunner::tr("Out of memory learning the BPE: use a "
                                                   "shorter text or bytes."));
            });
        }
    });
}

void TokenizingRunner::cancel()
{
    ++m_request;
    m_running = false;
}

} // namespace headlens
