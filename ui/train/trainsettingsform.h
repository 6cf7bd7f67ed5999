// TrainSettingsForm: the task and the model / optimiser settings of a training run, as widgets.
#pragma once

#include "train/trainingsettings.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace headlens {

/// Passive form: settings() reads the widgets on top of the last settings given (so the
/// vocabulary, sequence length and seed of a loaded model survive), setSettings() fills them
/// without emitting edited(). Choosing a task loads that task's defaults, which train it.
class TrainSettingsForm : public QWidget
{
    Q_OBJECT
public:
    explicit TrainSettingsForm(QWidget *parent = nullptr);

    TrainingSettings settings() const;
    void setSettings(const TrainingSettings &settings);
    /// Steps one press of Start trains (the run stops there by itself).
    int steps() const;
    void setSteps(int steps);
    /// A steps value that shows the task's pattern clearly (measured on 2 cores).
    static int defaultSteps(TaskKind task);

signals:
    /// A setting that changes the model or its training was edited (not the step count).
    void edited();

private:
    void chooseTask();
    void describe(TaskKind task);

    TrainingSettings m_base;
    QComboBox *m_task = nullptr;
    QLabel *m_description = nullptr;
    QSpinBox *m_layers = nullptr;
    QSpinBox *m_heads = nullptr;
    QSpinBox *m_dModel = nullptr;
    QDoubleSpinBox *m_learningRate = nullptr;
    QSpinBox *m_batchSize = nullptr;
    QSpinBox *m_steps = nullptr;
};

} // namespace headlens
