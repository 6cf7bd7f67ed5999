// ModelBox: the "Model" group at the top of the controls: built-in layer or a model, its layer.
#pragma once

#include "model/modelrun.h"

#include <QGroupBox>

#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace headlens {

class ModelController;
class Workspace;

/// Follows the workspace and the controller's latest run; choices go to the controller. The
/// settings a model fixes are shown here read-only.
class ModelBox : public QGroupBox
{
    Q_OBJECT
public:
    ModelBox(ModelController *controller, Workspace *workspace, QWidget *parent = nullptr);

    void sync();
    /// A long text's run, kept as tiles (TraceRunner::tiledRunReady): it never becomes the
    /// controller's run, which the other tabs draw, so the box shows its settings itself and
    /// says where it is drawn, instead of "No run of this model yet".
    void showTiledRun(const std::shared_ptr<const ModelRun> &run);

signals:
    void openFolderRequested();
    void openToyRequested();

private:
    void choose(int index);
    void showRun(const std::shared_ptr<const ModelRun> &run);

    ModelController *m_controller;
    Workspace *m_workspace;
    QComboBox *m_choice = nullptr;
    QSpinBox *m_layer = nullptr;
    QLabel *m_settings = nullptr;
    QLabel *m_note = nullptr;
    QPushButton *m_openFolder = nullptr;
    QPushButton *m_openToy = nullptr;
};

} // namespace headlens
