// ModelBox: a combo (built-in / model), a layer spin box, open buttons and read-only settings.
#include "models/modelbox.h"

#include "models/modelcontroller.h"
#include "panels/fulltextcombobox.h"
#include "panels/wrappedlabel.h"
#include "workspace/workspace.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>

namespace headlens {

ModelBox::ModelBox(ModelController *controller, Workspace *workspace, QWidget *parent)
    : QGroupBox(tr("Model"), parent), m_controller(controller), m_workspace(workspace)
{
    // As wide as "Toy model: previous-token.npz" at the current font (14 characters cut it in
    // presentation mode); a longer folder name must not widen the dock beyond the screen: the
    // combo elides it and the tooltip names it.
    m_choice = new FullTextComboBox(32, this);
    m_choice->setObjectName("modelChoice");
    m_layer = new QSpinBox(this);
    m_layer->setObjectName("modelLayer");
    m_layer->setRange(0, 0);
    m_layer->setToolTip(tr("The layer the Heads and Pipeline views show (0 = the first)"));
    m_openFolder = new QPushButton(tr("Model folder…"), this);
    m_openToy = new QPushButton(tr("Toy model…"), this);
    m_openFolder->setToolTip(tr("A Hugging Face model folder (GPT-2, Llama, Mistral, Qwen2, "
                                "Qwen3): from the cache or any folder"));
    m_openToy->setToolTip(tr("A model saved by the Train view or headlens-cli --train (.npz)"));
    m_settings = new WrappedLabel(this);
    m_settings->setObjectName("modelSettings");
    m_settings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note = new WrappedLabel(this);
    m_note->setObjectName("modelNote");
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_openFolder);
    buttons->addWidget(m_openToy);
    auto *form = new QFormLayout(this);
    // The whole model name beside "Show" made the dock so wide that at 1280 px the window's
    // tabs scrolled (Corpus hidden): the name goes below its label when the dock is narrow.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->addRow(tr("Show"), m_choice);
    form->addRow(tr("Layer"), m_layer);
    form->addRow(buttons);
    form->addRow(m_settings);
    form->addRow(m_note);
    connect(m_choice, &QComboBox::activated, this, &ModelBox::choose);
    connect(m_layer, &QSpinBox::valueChanged, controller, &ModelController::setLayer);
    connect(m_openFolder, &QPushButton::clicked, this, &ModelBox::openFolderRequested);
    connect(m_openToy, &QPushButton::clicked, this, &ModelBox::openToyRequested);
    connect(workspace, &Workspace::inputChanged, this, &ModelBox::sync);
    connect(controller, &ModelController::sourceChanged, this, &ModelBox::sync);
    connect(controller, &ModelController::runChanged, this, &ModelBox::sync);
    sync();
}

void ModelBox::choose(int index)
{
    if (index == 0)
        m_controller->useBuiltIn();
    else
        m_controller->useModel();
}

void ModelBox::sync()
{
    const bool active = m_controller->isActive();
    const QSignalBlocker blockChoice(m_choice);
    const QSignalBlocker blockLayer(m_layer);
    m_choice->clear();
    m_choice->addItem(tr("Built-in layer (settings below)"));
    if (m_controller->hasModel())
        m_choice->addItem(m_controller->modelName());
    m_choice->setCurrentIndex(active && m_choice->count() > 1 ? 1 : 0);
    m_choice->setToolTip(m_choice->currentText());
    m_layer->setEnabled(active);
    showRun(active ? m_controller->run() : nullptr);
    m_layer->setValue(m_workspace->state().modelLayer);
}

void ModelBox::showTiledRun(const std::shared_ptr<const ModelRun> &run)
{
    if (m_controller->isActive() && run && run->tiled())
        showRun(run);
}

void ModelBox::showRun(const std::shared_ptr<const ModelRun> &run)
{
    if (!run) {
        m_layer->setRange(0, m_controller->isActive() ? 99 : 0);
        m_layer->setSuffix(QString());
        // No run yet: the model is opening or running, or the text was refused; the window
        // cannot tell these apart here, so the text must hold for all of them.
        m_settings->setText(m_controller->isActive()
                                ? tr("No run of this model yet: it is opening, or the message "
                                     "above says what to change.")
                                : QString());
        m_settings->setVisible(m_controller->isActive());
        m_note->hide();
        return;
    }
    m_layer->setRange(0, run->layers - 1);
    m_layer->setSuffix(tr("   (layers 0–%1)").arg(run->layers - 1));
    m_settings->setText(tr("<small>Fixed by the model:</small><br>%1")
                            .arg(QString::fromStdString(run->settingsSummary)
                                     .toHtmlEscaped()
                                     .replace('\n', "<br>")));
    m_settings->show();
    if (run->tiled())
        m_note->setText(tr("<i>This text's %1 tokens are kept as tiles: the Long text tab draws "
                           "its heads.</i>")
                            .arg(QLocale().toString(qlonglong(run->tokenIds.size()))));
    else
        m_note->setText(
            run->mappedOntoToyVocabulary
                ? tr("<i>Typed text mapped onto the toy vocabulary, one character per token.</i>")
                : tr("<i>Reads the first line of the text as the model's own tokens.</i>"));
    m_note->show();
}

} // namespace headlens
