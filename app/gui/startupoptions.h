// StartupOptions: the shared command line applied to the window's workspace at start-up.
#pragma once

#include "commandline.h"
#include "workspace/workspacestate.h"

#include <optional>

namespace headlens {

/// What `headlens [file.headlens] [options]` asked for, in the window's terms. Only the options
/// that were given change the workspace, so `headlens lesson.headlens --heads 4` keeps every
/// other setting of the file.
class StartupOptions
{
public:
    explicit StartupOptions(CommandLineRequest request) : m_request(std::move(request)) {}

    const CommandLineRequest &request() const { return m_request; }
    QString workspacePath() const { return QString::fromStdString(m_request.workspacePath); }
    QString screenshotPath() const { return QString::fromStdString(m_request.screenshotPath); }
    /// --theme: true for dark, false for light, nothing when it was not given.
    std::optional<bool> darkTheme() const
    {
        if (m_request.theme.empty())
            return std::nullopt;
        return m_request.theme == "dark";
    }
    /// True when anything beyond the defaults was given (then the last workspace is not restored).
    bool hasSettings() const { return m_request.anySetting || !m_request.workspacePath.empty(); }
    /// `state` with the given options applied. Throws InputError for options the window cannot
    /// use (vectors from .npy files: those are for headlens-cli).
    WorkspaceState appliedTo(WorkspaceState state) const;

private:
    CommandLineRequest m_request;
};

} // namespace headlens
