// SessionStore: what was on screen at closing, kept in QSettings so the next start shows it.
#pragma once

#include "workspace/workspacestate.h"

#include <QString>

#include <optional>

class QSettings;

namespace headlens {

/// The session: the whole WorkspaceState (saved or not) as the .headlens JSON, and the path
/// of the workspace file it came from (for the title and Ctrl+S), which may be empty.
struct Session
{
    WorkspaceState state;
    QString path;
};

class SessionStore
{
public:
    static void save(QSettings &settings, const Session &session);
    /// The stored session; else, for settings written by an older HeadLens, the last saved
    /// workspace file; nothing when neither exists or the stored state cannot be read.
    static std::optional<Session> load(QSettings &settings);
};

} // namespace headlens
