// ExampleCommands: Examples > a lesson sentence, applied to the built-in layer.
#pragma once

#include <QObject>

namespace headlens {

class ModelController;
class Workspace;
struct Example;

/// The examples are lessons for the built-in layer: on a toy model the lesson sentence became
/// letters of its vocabulary ("The" as "m h e"), so an example goes back to the layer and says
/// how to bring the model back.
class ExampleCommands : public QObject
{
    Q_OBJECT
public:
    ExampleCommands(Workspace *workspace, ModelController *models, QObject *parent = nullptr);

    /// The example's texts in the workspace, on the built-in layer.
    void apply(const headlens::Example &example);

signals:
    /// A sentence for the status bar and how long it stays, in ms.
    void message(const QString &text, int timeout);

private:
    Workspace *m_workspace;
    ModelController *m_models;
};

} // namespace headlens
