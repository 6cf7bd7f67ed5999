// MainActions: the window's menus, actions and shortcuts; MainWindow connects them.
#pragma once

#include "plot/colormaps.h"
#include "plot/plotstyle.h"

#include <QObject>

class QAction;
class QActionGroup;
class QMainWindow;
class QMenu;

namespace headlens {

struct Example;

class MainActions : public QObject
{
    Q_OBJECT
public:
    /// Creates the actions and fills `window`'s menu bar.
    explicit MainActions(QMainWindow *window);

    QAction *openWeights = nullptr;
    QAction *clearWeights = nullptr;
    QAction *openModelFolder = nullptr;
    QAction *openToyModel = nullptr;
    QAction *openWorkspace = nullptr;
    QAction *saveWorkspace = nullptr;
    QAction *saveWorkspaceAs = nullptr;
    QAction *exportView = nullptr;
    QAction *exportTensors = nullptr;
    QAction *exportStep = nullptr;
    QAction *exportHandout = nullptr;
    QAction *openTrainedModel = nullptr;
    QAction *saveTrainedModel = nullptr;
    QAction *quit = nullptr;
    QAction *dark = nullptr;
    QAction *presentation = nullptr;
    QAction *zoomIn = nullptr;
    QAction *zoomOut = nullptr;
    QAction *zoomReset = nullptr;
    QAction *showHeads = nullptr;
    QAction *showPipeline = nullptr;
    QAction *showModel = nullptr;
    QAction *showTrain = nullptr;
    QAction *showCost = nullptr;
    QAction *showLines = nullptr;
    QAction *showCorpus = nullptr;
    QAction *showLens = nullptr;
    QAction *showAtlas = nullptr;
    QAction *showFlow = nullptr;
    QAction *showCircuits = nullptr;
    QAction *showCompare = nullptr;
    QAction *showControls = nullptr;
    QAction *about = nullptr;
    QAction *shortcuts = nullptr;

    void setColormap(Colormap map);
    /// Checks the colour-scale entry of `mode`.
    void setColorScale(ColorScaleMode mode);
    void setControlsToggle(QAction *toggle);

signals:
    void exampleChosen(const headlens::Example &example);
    void colormapChosen(headlens::Colormap map);
    void colorScaleChosen(headlens::ColorScaleMode mode);

private:
    void buildFileMenu(QMenu *menu);
    void buildExamplesMenu(QMenu *menu);
    void buildViewMenu(QMenu *menu);

    QMainWindow *m_window;
    QMenu *m_viewMenu = nullptr;
    QActionGroup *m_colormaps = nullptr;
    QActionGroup *m_colorScales = nullptr;
};

} // namespace headlens
