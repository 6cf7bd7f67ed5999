// ModelWiring: pointer-to-member connections between the model classes and the window.
#include "models/modelwiring.h"

#include "mainwindow.h"
#include "models/modelbox.h"
#include "models/modelcontroller.h"
#include "models/modeloverview.h"
#include "panels/controlspanel.h"
#include "runner/tracerunner.h"
#include "selection/selection.h"
#include "window/filecommands.h"
#include "window/mainactions.h"
#include "workspace/workspace.h"

#include <QAction>
#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

namespace headlens {

ModelWiring::ModelWiring(MainWindow *window, MainActions *actions)
    : QObject(window), m_window(window)
{
    m_controller = new ModelController(window->workspace(), this);
    m_box = new ModelBox(m_controller, window->workspace(), window->controls());
    window->controls()->insertBox(m_box);
    m_overview = new ModelOverview(window->tabs());
    window->tabs()->addTab(m_overview, tr("Model"));
    window->tabs()->setTabVisible(window->tabs()->indexOf(m_overview), false);
    m_note = new QLabel(window->viewArea());
    m_note->setObjectName("modelNote");
    m_note->hide();
    if (auto *layout = qobject_cast<QVBoxLayout *>(window->viewArea()->layout()))
        layout->insertWidget(0, m_note);
    connect(window->runner(), &TraceRunner::modelRunReady, m_controller, &ModelController::setRun);
    connect(m_controller, &ModelController::runChanged, this, &ModelWiring::showRun);
    connect(m_controller, &ModelController::sourceChanged, window, &MainWindow::recompute);
    connect(m_controller, &ModelController::sourceChanged, this, &ModelWiring::syncActive);
    connect(window->workspace(), &Workspace::inputChanged, this, &ModelWiring::syncActive);
    connect(m_overview, &ModelOverview::headChosen, m_controller, &ModelController::openHead);
    connect(m_controller, &ModelController::headOpened, this, &ModelWiring::openHead);
    connect(m_box, &ModelBox::openGpt2Requested, window->files(),
            &FileCommands::chooseAndOpenModelFolder);
    connect(m_box, &ModelBox::openToyRequested, window->files(),
            &FileCommands::chooseAndOpenToyModel);
    connectActions(actions);
    syncActive();
}

void ModelWiring::connectActions(MainActions *actions)
{
    connect(actions->openModelFolder, &QAction::triggered, m_window->files(),
            &FileCommands::chooseAndOpenModelFolder);
    connect(actions->openToyModel, &QAction::triggered, m_window->files(),
            &FileCommands::chooseAndOpenToyModel);
    connect(actions->showModel, &QAction::triggered, this, &ModelWiring::showOverview);
}

void ModelWiring::setPlotStyle(const PlotStyle &style)
{
    m_overview->setPlotStyle(style);
}

void ModelWiring::showOverview()
{
    QTabWidget *tabs = m_window->tabs();
    if (tabs->isTabVisible(tabs->indexOf(m_overview)))
        tabs->setCurrentWidget(m_overview);
}

// The built-in layer's settings are hidden while a model fixes them (the Model box says them).
void ModelWiring::syncActive()
{
    m_window->controls()->setLayerSettingsVisible(!m_controller->isActive());
}

void ModelWiring::showRun(const std::shared_ptr<const ModelRun> &run)
{
    QTabWidget *tabs = m_window->tabs();
    const int index = tabs->indexOf(m_overview);
    if (!run && tabs->currentIndex() == index)
        tabs->setCurrentWidget(m_window->viewArea());
    tabs->setTabVisible(index, bool(run));
    m_note->setVisible(bool(run));
    if (!run)
        return;
    m_overview->setRun(run);
    m_overview->setCurrent(run->source.layer, m_window->selection()->pinnedHead());
    const QString tokens = run->mappedOntoToyVocabulary
                               ? tr("typed text mapped onto the toy vocabulary")
                               : tr("%1 BPE tokens").arg(run->tokens.size());
    m_note->setText(tr("<b>%1</b> · layer %2 of %3 · %4")
                        .arg(QString::fromStdString(run->name).toHtmlEscaped())
                        .arg(run->source.layer)
                        .arg(run->layers)
                        .arg(tokens));
}

void ModelWiring::openHead(int layer, int head)
{
    m_window->selection()->setPinnedHead(head);
    m_overview->setCurrent(layer, head);
    m_window->tabs()->setCurrentWidget(m_window->viewArea());
}

} // namespace headlens
