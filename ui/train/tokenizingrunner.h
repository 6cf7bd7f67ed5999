// TokenizingRunner: a training text turned into tokens off the UI thread, the newest request only.
#pragma once

#include "train/trainingtokens.h"

#include <QObject>
#include <QString>

#include <memory>
#include <string>

namespace headlens {

/// Learning a BPE from 2 MB of text and encoding the text with it takes a second or more: it
/// runs in ViewWorkPool and reports on the owner's thread. One byte per token needs no
/// learning and is done at once. A new start() makes the one before it stale: only the newest
/// request's signal arrives.
class TokenizingRunner : public QObject
{
    Q_OBJECT
public:
    explicit TokenizingRunner(QObject *parent = nullptr);

    /// `text` as bytes (bpeVocabulary 0: finished() before this returns) or with a BPE of
    /// `bpeVocabulary` tokens learned from it.
    void start(std::shared_ptr<const std::string> text, int bpeVocabulary);
    /// Forgets the request in flight (its result is dropped).
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    void finished(std::shared_ptr<const TrainingTokens> tokens);
    /// What is wrong with the request (TrainingTokens' InputError), as a sentence.
    void failed(const QString &message);

private:
    uint64_t m_request = 0; ///< the newest request's number
    bool m_running = false;
};

} // namespace headlens
