// TrainSettingsForm: spin boxes span the core's accepted ranges; validate() explains the rest.
#include "train/trainsettingsform.h"

#include "panels/fulltextcombobox.h"
#include "train/taskpattern.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

namespace headlens {

namespace {

QSpinBox *spinBox(QWidget *parent, const char *name, int low, int high, const QString &tip)
{
    auto *box = new QSpinBox(parent);
    box->setObjectName(name);
    box->setRange(low, high);
    box->setToolTip(tip);
    box->setKeyboardTracking(false); // typing "64" is one edit, not "6" then "64"
    return box;
}

} // namespace

TrainSettingsForm::TrainSettingsForm(QWidget *parent) : QWidget(parent)
{
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_task = new FullTextComboBox(40, this); // "Induction (copy a sequence)" in full
    m_task->setObjectName("trainTask");
    for (TaskKind task :
         {TaskKind::PreviousToken, TaskKind::Induction, TaskKind::Reverse, TaskKind::Sort})
        m_task->addItem(TaskPattern::title(task), int(task));
    m_description = new QLabel(this);
    m_description->setObjectName("taskDescription");
    m_description->setWordWrap(true);
    m_layers = spinBox(this, "trainLayers", 1, 2, tr("Attention layers (induction needs 2)"));
    m_heads = spinBox(this, "trainHeads", 1, 8, tr("Heads per layer; must divide d_model"));
    m_dModel = spinBox(this, "trainDModel", 16, 128, tr("Width of the residual stream"));
    m_learningRate = new QDoubleSpinBox(this);
    m_learningRate->setObjectName("trainLearningRate");
    m_learningRate->setDecimals(4);
    m_learningRate->setRange(0.0001, 1.0);
    m_learningRate->setSingleStep(0.0005);
    m_learningRate->setKeyboardTracking(false);
    m_learningRate->setToolTip(tr("Adam's step size"));
    m_batchSize = spinBox(this, "trainBatchSize", 1, 1024, tr("Sequences per step"));
    m_steps = spinBox(this, "trainSteps", 1, 100000,
                      tr("Steps one press of Start trains; press again to train as many more"));
    m_steps->setSingleStep(100);
    form->addRow(tr("Task"), m_task);
    form->addRow(m_description);
    form->addRow(tr("Layers"), m_layers);
    form->addRow(tr("Heads"), m_heads);
    form->addRow(tr("d_model"), m_dModel);
    form->addRow(tr("Learning rate"), m_learningRate);
    form->addRow(tr("Batch size"), m_batchSize);
    form->addRow(tr("Steps"), m_steps);
    setSettings(TrainingSettings::defaultsFor(TaskKind::PreviousToken));
    setSteps(defaultSteps(TaskKind::PreviousToken));
    connect(m_task, &QComboBox::activated, this, &TrainSettingsForm::chooseTask);
    for (QSpinBox *box : {m_layers, m_heads, m_dModel, m_batchSize})
        connect(box, &QSpinBox::valueChanged, this, &TrainSettingsForm::edited);
    connect(m_learningRate, &QDoubleSpinBox::valueChanged, this, &TrainSettingsForm::edited);
}

int TrainSettingsForm::defaultSteps(TaskKind task)
{
    switch (task) {
    case TaskKind::PreviousToken:
        return 200;
    case TaskKind::Induction:
        return 600;
    default:
        return 1500;
    }
}

TrainingSettings TrainSettingsForm::settings() const
{
    TrainingSettings s = m_base;
    s.task = TaskKind(m_task->currentData().toInt());
    s.model.layers = m_layers->value();
    s.model.heads = m_heads->value();
    s.model.dModel = m_dModel->value();
    s.learningRate = float(m_learningRate->value());
    s.batchSize = m_batchSize->value();
    return s;
}

void TrainSettingsForm::setSettings(const TrainingSettings &s)
{
    const QSignalBlocker blockers[] = {QSignalBlocker(m_task),      QSignalBlocker(m_layers),
                                       QSignalBlocker(m_heads),     QSignalBlocker(m_dModel),
                                       QSignalBlocker(m_batchSize), QSignalBlocker(m_learningRate)};
    m_base = s;
    m_task->setCurrentIndex(m_task->findData(int(s.task)));
    m_layers->setValue(s.model.layers);
    m_heads->setValue(s.model.heads);
    m_dModel->setValue(s.model.dModel);
    m_learningRate->setValue(double(s.learningRate));
    m_batchSize->setValue(s.batchSize);
    describe(s.task);
}

int TrainSettingsForm::steps() const
{
    return m_steps->value();
}

void TrainSettingsForm::setSteps(int steps)
{
    m_steps->setValue(steps);
}

void TrainSettingsForm::chooseTask()
{
    const auto task = TaskKind(m_task->currentData().toInt());
    setSettings(TrainingSettings::defaultsFor(task));
    setSteps(defaultSteps(task));
    emit edited();
}

void TrainSettingsForm::describe(TaskKind task)
{
    const TrainingSettings d = TrainingSettings::defaultsFor(task);
    const ToyTask toy(task, d.model.vocabulary, d.model.maxLength);
    m_description->setText(QString::fromStdString(toy.description()).toHtmlEscaped() + "<br><i>" +
                           TaskPattern::needs(task).toHtmlEscaped() + "</i>");
}

} // namespace headlens
