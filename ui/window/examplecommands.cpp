// ExampleCommands: leaves a model for the built-in layer before the example's texts go in.
#include "window/examplecommands.h"

#include "models/modelcontroller.h"
#include "window/examples.h"
#include "workspace/workspace.h"

namespace headlens {

ExampleCommands::ExampleCommands(Workspace *workspace, ModelController *models, QObject *parent)
    : QObject(parent), m_workspace(workspace), m_models(models)
{}

void ExampleCommands::apply(const Example &example)
{
    if (m_models->isActive()) {
        const QString name = m_models->modelName();
        m_models->useBuiltIn();
        emit message(tr("The examples are for the built-in layer, shown again; the Model box's "
                        "Show list brings back %1.")
                         .arg(name),
                     10000);
    }
    m_workspace->setState(example.appliedTo(m_workspace->state()));
}

} // namespace headlens
