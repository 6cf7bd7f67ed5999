// FileMenuWiring: one connection per File menu entry; "random weights" clears the weights file.
#include "window/filemenuwiring.h"

#include "models/modelbox.h"
#include "window/filecommands.h"
#include "window/mainactions.h"
#include "workspace/workspace.h"

#include <QAction>

namespace headlens {

FileMenuWiring::FileMenuWiring(FileCommands *files, MainActions *actions, ModelBox *box,
                               Workspace *workspace,
                               std::function<std::shared_ptr<const Trace>()> trace)
    : QObject(files)
{
    connect(actions->openWeights, &QAction::triggered, files, &FileCommands::chooseAndOpenWeights);
    connect(actions->clearWeights, &QAction::triggered, workspace,
            [workspace] { workspace->setWeightsPath(QString()); });
    connect(actions->openWorkspace, &QAction::triggered, files,
            &FileCommands::chooseAndOpenWorkspace);
    connect(actions->saveWorkspace, &QAction::triggered, files, &FileCommands::save);
    connect(actions->saveWorkspaceAs, &QAction::triggered, files,
            &FileCommands::chooseAndSaveWorkspace);
    connect(actions->exportTensors, &QAction::triggered, files, [files, workspace, trace] {
        files->chooseAndExportTensors(trace(), workspace->state().batchIndex);
    });
    connect(box, &ModelBox::openFolderRequested, files, &FileCommands::chooseAndOpenModelFolder);
    connect(box, &ModelBox::openToyRequested, files, &FileCommands::chooseAndOpenToyModel);
    connect(actions->openModelFolder, &QAction::triggered, files,
            &FileCommands::chooseAndOpenModelFolder);
    connect(actions->openToyModel, &QAction::triggered, files,
            &FileCommands::chooseAndOpenToyModel);
}

} // namespace headlens
