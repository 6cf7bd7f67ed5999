// SessionStore: the state as WorkspaceFile JSON under "session/", older "workspace/last" read.
#include "workspace/sessionstore.h"

#include "util/inputerror.h"
#include "workspace/workspacefile.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QSettings>

namespace headlens {

void SessionStore::save(QSettings &settings, const Session &session)
{
    settings.setValue("session/state",
                      QJsonDocument(WorkspaceFile::toJson(session.state)).toJson());
    settings.setValue("session/path", session.path);
    if (!session.path.isEmpty())
        settings.setValue("workspace/last", session.path);
}

std::optional<Session> SessionStore::load(QSettings &settings)
{
    const QByteArray json = settings.value("session/state").toByteArray();
    if (!json.isEmpty()) {
        const QJsonDocument document = QJsonDocument::fromJson(json);
        try {
            if (document.isObject())
                return Session{WorkspaceFile::fromJson(document.object()),
                               settings.value("session/path").toString()};
        } catch (const InputError &) {
            // A session from a newer HeadLens: start fresh rather than half-restored.
        }
        return std::nullopt;
    }
    const QString last = settings.value("workspace/last").toString();
    if (last.isEmpty() || !QFileInfo::exists(last))
        return std::nullopt;
    try {
        return Session{WorkspaceFile::load(last), last};
    } catch (const InputError &) {
        return std::nullopt;
    }
}

} // namespace headlens
