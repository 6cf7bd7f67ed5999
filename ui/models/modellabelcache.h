// ModelLabelCache: a model path's label ("GPT-2: gpt2"), read from its config.json once.
#pragma once

#include <QDateTime>
#include <QString>

#include <functional>
#include <string>

namespace headlens {

/// The Model box asks for the model's name on every edit of the text; reading and parsing
/// config.json each time made typing wait on the disk. The label is read again only for
/// another path, or when the file it comes from (a folder's config.json, else the file
/// itself) has another modification time.
class ModelLabelCache
{
public:
    /// Reads the label of a path; ModelOpener::label unless a test counts the reads.
    using Reader = std::function<std::string(const std::string &path)>;

    explicit ModelLabelCache(Reader reader = {});

    QString label(const QString &path);

private:
    /// The modification time of what the label is read from; invalid while it is missing.
    static QDateTime sourceModified(const QString &path);

    Reader m_reader;
    QString m_path;       ///< the path last read; empty: nothing read yet
    QDateTime m_modified; ///< sourceModified(m_path) when it was read
    QString m_label;
};

} // namespace headlens
