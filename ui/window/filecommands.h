// FileCommands: open/save workspaces, open weights, export tensors, with dialogs.
#pragma once

#include "attention/trace.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QSettings;
class QWidget;

namespace headlens {

class Workspace;

/// The File menu's work. Every failure is shown in plain words and leaves the session as it was.
class FileCommands : public QObject
{
    Q_OBJECT
public:
    FileCommands(Workspace *workspace, QWidget *window);

    const QString &workspacePath() const { return m_path; }

    /// Opens a workspace; on failure explains and keeps the current state. True on success.
    bool openWorkspace(const QString &path);
    /// Saves to `path` (atomically). True on success.
    bool saveWorkspace(const QString &path);
    /// Sets the weights file after checking it can be read, and takes d_model, d_in and the
    /// biases from it (WeightsPolicy::adopt); a later setting that does not fit is refused.
    bool openWeights(const QString &path);
    /// Shows the model at `path` (any family ModelOpener knows), layer 0, after a cheap check;
    /// the runner opens it in its thread and reports what is wrong in the file.
    bool openModel(const QString &path);
    /// Opens whatever was dropped or given: .headlens, a GPT-2 folder, a toy model or weights.
    bool openAny(const QString &path);
    /// Writes the session (state and workspace path) for the next start.
    void storeSession(QSettings &settings) const;
    /// Restores the stored session; false when there is none.
    bool restoreSession(QSettings &settings);

    void chooseAndOpenWorkspace();
    void save();
    void chooseAndSaveWorkspace();
    void chooseAndOpenWeights();
    void chooseAndOpenModelFolder();
    void chooseAndOpenToyModel();
    void chooseAndExportTensors(const std::shared_ptr<const Trace> &trace, int batchIndex);

signals:
    void message(const QString &text);
    void workspacePathChanged(const QString &path);

private:
    void complain(const QString &title, const QString &text);
    bool guard(const QString &title, const std::function<void()> &work);

    Workspace *m_workspace;
    QWidget *m_window;
    QString m_path;
};

} // namespace headlens
