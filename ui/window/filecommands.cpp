// FileCommands: dialogs around WorkspaceFile, WeightsFile and TensorExporter.
#include "window/filecommands.h"

#include "attention/weightsfile.h"
#include "export/tensorexporter.h"
#include "model/modelopener.h"
#include "models/modelpicker.h"
#include "session/weightspolicy.h"
#include "util/inputerror.h"
#include "workspace/sessionstore.h"
#include "workspace/workspace.h"
#include "workspace/workspacefile.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace headlens {

FileCommands::FileCommands(Workspace *workspace, QWidget *window)
    : QObject(window), m_workspace(workspace), m_window(window)
{}

void FileCommands::complain(const QString &title, const QString &text)
{
    emit message(text);
    if (m_window->isVisible() && !m_window->testAttribute(Qt::WA_DontShowOnScreen))
        QMessageBox::warning(m_window, title, text);
}

bool FileCommands::guard(const QString &title, const std::function<void()> &work)
{
    try {
        work();
        return true;
    } catch (const InputError &error) {
        complain(title, QString::fromStdString(error.what()));
    } catch (const std::exception &error) {
        complain(title, tr("Something went wrong: %1").arg(error.what()));
    }
    return false;
}

bool FileCommands::openWorkspace(const QString &path)
{
    return guard(tr("Cannot open the workspace"), [&] {
        const WorkspaceState state = WorkspaceFile::load(path);
        m_workspace->setState(state);
        m_path = path;
        emit workspacePathChanged(path);
        emit message(tr("Opened %1").arg(QFileInfo(path).fileName()));
    });
}

bool FileCommands::saveWorkspace(const QString &path)
{
    return guard(tr("Cannot save the workspace"), [&] {
        WorkspaceFile::save(path, m_workspace->state());
        m_path = path;
        emit workspacePathChanged(path);
        emit message(tr("Saved %1").arg(QFileInfo(path).fileName()));
    });
}

bool FileCommands::openWeights(const QString &path)
{
    return guard(tr("Cannot open the weights"), [&] {
        // Read once here, so a bad file is reported now. The file fixes d_model, d_in and the
        // biases: the controls take them from it, as headlens-cli does (WeightsPolicy).
        const LoadedWeights loaded = WeightsFile::load(path.toStdString());
        WorkspaceState state = m_workspace->state();
        state.config = WeightsPolicy::adopt(loaded, state.config, ChosenSettings::none());
        state.weightsPath = path;
        m_workspace->setState(state);
        emit message(tr("Weights from %1").arg(QFileInfo(path).fileName()));
    });
}

bool FileCommands::openModel(const QString &path)
{
    if (auto problem = ModelOpener::problemWith(path.toStdString())) {
        complain(tr("Cannot open the model"), QString::fromStdString(*problem));
        return false;
    }
    const QFileInfo info(path);
    m_workspace->setModel(info.absoluteFilePath(), 0);
    emit message(tr("Opening %1…").arg(info.fileName()));
    return true;
}

bool FileCommands::openAny(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (ModelOpener::namesModel(path.toStdString()))
        return openModel(path);
    if (suffix == "npz")
        return openWeights(path);
    if (suffix == "headlens" || suffix == "json")
        return openWorkspace(path);
    complain(tr("Cannot open this file"),
             tr("HeadLens opens workspaces (.headlens), weights and toy models (.npz) and "
                "model folders (GPT-2, Llama, Mistral, Qwen); %1 is none of these.")
                 .arg(QFileInfo(path).fileName()));
    return false;
}

void FileCommands::storeSession(QSettings &settings) const
{
    SessionStore::save(settings, Session{m_workspace->state(), m_path});
}

bool FileCommands::restoreSession(QSettings &settings)
{
    const std::optional<Session> session = SessionStore::load(settings);
    if (!session)
        return false;
    m_workspace->setState(session->state);
    m_path = session->path;
    emit workspacePathChanged(m_path);
    return true;
}

void FileCommands::chooseAndOpenModelFolder()
{
    const QString path = ModelPicker::choose(m_window);
    if (!path.isEmpty())
        openModel(path);
}

void FileCommands::chooseAndOpenToyModel()
{
    const QString path = QFileDialog::getOpenFileName(m_window, tr("View a trained toy model"),
                                                      QString(), tr("HeadLens toy model (*.npz)"));
    if (!path.isEmpty())
        openModel(path);
}

void FileCommands::chooseAndOpenWorkspace()
{
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open workspace"), m_path,
                                                      tr("HeadLens workspaces (*.headlens)"));
    if (!path.isEmpty())
        openWorkspace(path);
}

void FileCommands::save()
{
    if (m_path.isEmpty())
        chooseAndSaveWorkspace();
    else
        saveWorkspace(m_path);
}

void FileCommands::chooseAndSaveWorkspace()
{
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save workspace"),
                                                m_path.isEmpty() ? "attention.headlens" : m_path,
                                                tr("HeadLens workspaces (*.headlens)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += ".headlens";
    saveWorkspace(path);
}

void FileCommands::chooseAndOpenWeights()
{
    const QString path = QFileDialog::getOpenFileName(
        m_window, tr("Open weights"), QString(),
        tr("nn.MultiheadAttention state_dict as NumPy archive (*.npz)"));
    if (!path.isEmpty())
        openWeights(path);
}

void FileCommands::chooseAndExportTensors(const std::shared_ptr<const Trace> &trace, int batchIndex)
{
    if (!trace)
        return complain(tr("Nothing to export"), tr("There is no computed attention yet."));
    QString filter;
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Export tensors"), "trace",
        tr("Folder of .npy files + trace.json (*);;Weights as CSV (*.csv);;JSON summary (*.json)"),
        &filter);
    if (path.isEmpty())
        return;
    guard(tr("Cannot export the tensors"), [&] {
        if (filter.contains("csv") || path.endsWith(".csv"))
            TensorExporter::writeWeightsCsv(*trace, batchIndex, path);
        else if (filter.contains("json") || path.endsWith(".json"))
            TensorExporter::writeJsonSummary(*trace, path);
        else
            TensorExporter::writeNpyDirectory(*trace, path);
        emit message(tr("Wrote %1").arg(path));
    });
}

} // namespace headlens
