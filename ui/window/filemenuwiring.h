// FileMenuWiring: the File menu's open, save and export entries and the Model box's buttons.
#pragma once

#include "attention/trace.h"

#include <QObject>

#include <functional>
#include <memory>

namespace headlens {

class FileCommands;
class MainActions;
class ModelBox;
class Workspace;

/// Connects what asks for a file to FileCommands, which does the work; the window shows
/// FileCommands' messages.
class FileMenuWiring : public QObject
{
    Q_OBJECT
public:
    /// `trace` gives the trace on screen, for File > Export tensors.
    FileMenuWiring(FileCommands *files, MainActions *actions, ModelBox *box, Workspace *workspace,
                   std::function<std::shared_ptr<const Trace>()> trace);
};

} // namespace headlens
