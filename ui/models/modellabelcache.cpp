// ModelLabelCache: one entry (the Model box shows one model), checked by path and file time.
#include "models/modellabelcache.h"

#include "model/modelopener.h"

#include <QDir>
#include <QFileInfo>

namespace headlens {

ModelLabelCache::ModelLabelCache(Reader reader)
    : m_reader(reader ? std::move(reader) : Reader(&ModelOpener::label))
{}

QString ModelLabelCache::label(const QString &path)
{
    const QDateTime modified = sourceModified(path);
    if (m_path.isEmpty() || path != m_path || modified != m_modified) {
        m_label = QString::fromStdString(m_reader(path.toStdString()));
        m_path = path;
        m_modified = modified;
    }
    return m_label;
}

QDateTime ModelLabelCache::sourceModified(const QString &path)
{
    const QFileInfo info(path);
    const QFileInfo source = info.isDir() ? QFileInfo(QDir(path).filePath("config.json")) : info;
    return source.exists() ? source.lastModified() : QDateTime();
}

} // namespace headlens
