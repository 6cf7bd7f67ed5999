// MainActions: standard shortcuts where the platform has them (Ctrl+O, Ctrl+S, F1, ...).
#include "window/mainactions.h"

#include "plot/colorrange.h"

#include "window/examples.h"

#include <QAction>
#include <QActionGroup>
#include <QMainWindow>
#include <QMenuBar>

namespace headlens {

MainActions::MainActions(QMainWindow *window) : QObject(window), m_window(window)
{
    QMenuBar *bar = window->menuBar();
    buildFileMenu(bar->addMenu(tr("&File")));
    buildExamplesMenu(bar->addMenu(tr("E&xamples")));
    m_viewMenu = bar->addMenu(tr("&View"));
    buildViewMenu(m_viewMenu);
    QMenu *help = bar->addMenu(tr("&Help"));
    shortcuts = help->addAction(tr("&Keyboard shortcuts"));
    shortcuts->setShortcut(QKeySequence::HelpContents);
    about = help->addAction(tr("&About HeadLens"));
}

void MainActions::buildFileMenu(QMenu *menu)
{
    openWeights = menu->addAction(tr("Open &weights (.npz)…"));
    openWeights->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    clearWeights = menu->addAction(tr("Use &random weights (seeded)"));
    openModelFolder = menu->addAction(tr("Open &model…"));
    openModelFolder->setShortcut(QKeySequence(tr("Ctrl+M")));
    openToyModel = menu->addAction(tr("View a trained &toy model's layers (.npz)…"));
    menu->addSeparator();
    openWorkspace = menu->addAction(tr("&Open workspace…"));
    openWorkspace->setShortcut(QKeySequence::Open);
    saveWorkspace = menu->addAction(tr("&Save workspace"));
    saveWorkspace->setShortcut(QKeySequence::Save);
    saveWorkspaceAs = menu->addAction(tr("Save workspace &as…"));
    saveWorkspaceAs->setShortcut(QKeySequence::SaveAs);
    menu->addSeparator();
    exportView = menu->addAction(tr("&Export view as PNG/SVG/PDF…"));
    exportView->setShortcut(QKeySequence(tr("Ctrl+E")));
    exportTensors = menu->addAction(tr("Export &tensors as .npy/CSV/JSON…"));
    exportTensors->setShortcut(QKeySequence(tr("Ctrl+Shift+E")));
    exportStep = menu->addAction(tr("Export pipeline &step as PNG/SVG/PDF…"));
    exportHandout = menu->addAction(tr("Print pipeline &handout (PDF)…"));
    exportHandout->setShortcut(QKeySequence::Print);
    menu->addSeparator();
    openTrainedModel = menu->addAction(tr("Train view: open a saved toy &model (.npz)…"));
    saveTrainedModel = menu->addAction(tr("Train view: save the trained mo&del (.npz)…"));
    menu->addSeparator();
    quit = menu->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
}

void MainActions::buildExamplesMenu(QMenu *menu)
{
    for (const Example &example : Examples::all()) {
        QAction *action = menu->addAction(example.title);
        connect(action, &QAction::triggered, this,
                [this, example] { emit exampleChosen(example); });
    }
}

void MainActions::buildViewMenu(QMenu *menu)
{
    QMenu *colormaps = menu->addMenu(tr("&Colormap"));
    m_colormaps = new QActionGroup(this);
    for (const QString &name : Colormaps::names()) {
        QAction *action = colormaps->addAction(name);
        action->setCheckable(true);
        action->setData(name);
        m_colormaps->addAction(action);
        connect(action, &QAction::triggered, this,
                [this, name] { emit colormapChosen(Colormaps::fromName(name)); });
    }
    setColormap(Colormap::Viridis);
    QMenu *scales = menu->addMenu(tr("Colour &scale"));
    m_colorScales = new QActionGroup(this);
    const std::pair<ColorScaleMode, QString> choices[] = {
        {ColorScaleMode::Shown, tr("&Up to the largest weight shown")},
        {ColorScaleMode::Full, tr("&0 to 1")},
        {ColorScaleMode::PerHead, tr("&Per head")},
    };
    for (const auto &[mode, text] : choices) {
        QAction *action = scales->addAction(text);
        action->setCheckable(true);
        action->setData(ColorRange::modeName(mode));
        m_colorScales->addAction(action);
        connect(action, &QAction::triggered, this,
                [this, mode = mode] { emit colorScaleChosen(mode); });
    }
    setColorScale(ColorScaleMode::Shown);
    dark = menu->addAction(tr("&Dark"));
    dark->setCheckable(true);
    presentation = menu->addAction(tr("P&resentation mode (large fonts)"));
    presentation->setCheckable(true);
    presentation->setShortcut(QKeySequence(tr("F5")));
    menu->addSeparator();
    zoomIn = menu->addAction(tr("Zoom &in"));
    zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(tr("Ctrl+="))});
    zoomOut = menu->addAction(tr("Zoom &out"));
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    zoomReset = menu->addAction(tr("&Normal size"));
    zoomReset->setShortcut(QKeySequence(tr("Ctrl+0")));
    menu->addSeparator();
    showHeads = menu->addAction(tr("&Heads"));
    showHeads->setShortcut(QKeySequence(tr("Ctrl+1")));
    showPipeline = menu->addAction(tr("&Pipeline, step by step"));
    showPipeline->setShortcut(QKeySequence(tr("Ctrl+2")));
    // In shortcut order (the tabs' order differs: Model appears only with a model open).
    showTrain = menu->addAction(tr("&Train a tiny model"));
    showTrain->setShortcut(QKeySequence(tr("Ctrl+3")));
    showModel = menu->addAction(tr("&Model: every layer and head"));
    showModel->setShortcut(QKeySequence(tr("Ctrl+4")));
    showCost = menu->addAction(tr("&Cost: MHA, GQA and MQA"));
    showCost->setShortcut(QKeySequence(tr("Ctrl+5")));
    showLines = menu->addAction(tr("&Lines: each query to the keys it attends to"));
    showLines->setShortcut(QKeySequence(tr("Ctrl+6")));
    showCorpus = menu->addAction(tr("Co&rpus: every head over a text file"));
    showCorpus->setShortcut(QKeySequence(tr("Ctrl+7")));
    showCompare = menu->addAction(tr("Comp&are: two texts or two settings, head by head"));
    showCompare->setShortcut(QKeySequence(tr("Ctrl+8")));
    showLens = menu->addAction(tr("L&ens: what each layer predicts, what each head writes"));
    showLens->setShortcut(QKeySequence(tr("Ctrl+9")));
    showAtlas = menu->addAction(tr("A&tlas: every head typed by where it looks"));
    showAtlas->setShortcut(QKeySequence(tr("Ctrl+Shift+9")));
    showFlow = menu->addAction(tr("&Flow: rollout and value-weighted attention"));
    showFlow->setShortcut(QKeySequence(tr("Ctrl+Shift+8")));
    showCircuits = menu->addAction(tr("C&ircuits: what a head reads (QK) and writes (OV)"));
    showCircuits->setShortcut(QKeySequence(tr("Ctrl+Shift+7")));
    menu->addSeparator();
}

void MainActions::setColormap(Colormap map)
{
    for (QAction *action : m_colormaps->actions())
        action->setChecked(action->data().toString() == Colormaps::name(map));
}

void MainActions::setColorScale(ColorScaleMode mode)
{
    for (QAction *action : m_colorScales->actions())
        action->setChecked(action->data().toString() == ColorRange::modeName(mode));
}

void MainActions::setControlsToggle(QAction *toggle)
{
    showControls = toggle;
    toggle->setShortcut(QKeySequence(tr("F4")));
    m_viewMenu->addAction(toggle);
}

} // namespace headlens
