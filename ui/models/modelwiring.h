// ModelWiring: puts the Model box, the Model tab and the model commands into the main window.
#pragma once

#include "models/modelrun.h"
#include "plot/plotstyle.h"

#include <QObject>

#include <memory>

class QLabel;

namespace headlens {

class MainActions;
class MainWindow;
class ModelBox;
class ModelController;
class ModelOverview;

/// Keeps MainWindow small: builds the model widgets, adds them to the window and connects
/// them to the workspace, the runner, the selection and the File menu.
class ModelWiring : public QObject
{
    Q_OBJECT
public:
    ModelWiring(MainWindow *window, MainActions *actions);

    ModelController *controller() const { return m_controller; }
    ModelOverview *overview() const { return m_overview; }
    ModelBox *box() const { return m_box; }
    void setPlotStyle(const PlotStyle &style);
    /// Brings the "Model" tab to the front (when a model has run).
    void showOverview();

private:
    void connectActions(MainActions *actions);
    void showRun(const std::shared_ptr<const ModelRun> &run);
    void openHead(int layer, int head);
    void syncActive();

    MainWindow *m_window;
    ModelController *m_controller = nullptr;
    ModelBox *m_box = nullptr;
    ModelOverview *m_overview = nullptr;
    QLabel *m_note = nullptr; ///< above the token strip: which model and layer the views show
};

} // namespace headlens
