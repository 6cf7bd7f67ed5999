// TrainScoreboard: big numbers first; the smaller line says what they mean.
#include "train/trainscoreboard.h"

#include <QGridLayout>
#include <QLabel>

#include <cmath>

namespace headlens {

TrainScoreboard::TrainScoreboard(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    m_accuracy = new QLabel(this);
    m_accuracy->setObjectName("heldOutAccuracy");
    m_steps = new QLabel(this);
    m_steps->setObjectName("stepCount");
    for (QLabel *label : {m_accuracy, m_steps}) {
        QFont big = label->font();
        big.setPointSizeF(big.pointSizeF() * 2.0);
        big.setBold(true);
        label->setFont(big);
    }
    m_reached = new QLabel(this);
    m_reached->setObjectName("reachedTarget");
    m_reached->setWordWrap(true);
    layout->setHorizontalSpacing(24);
    layout->setVerticalSpacing(0);
    layout->addWidget(m_accuracy, 0, 0);
    layout->addWidget(m_steps, 0, 1);
    layout->addWidget(m_reached, 1, 0, 1, 3);
    layout->setColumnStretch(2, 1);
    clear();
}

void TrainScoreboard::clear()
{
    m_reachedStep.reset();
    m_accuracy->setText(tr("– held-out"));
    m_reached->clear();
    updateSteps(0, 0.0);
}

void TrainScoreboard::setMetrics(const TrainingMetrics &metrics)
{
    updateSteps(metrics.step, metrics.seconds);
}

void TrainScoreboard::setReport(const TrainingReport &report)
{
    const Evaluation &e = report.evaluation;
    m_accuracy->setText(tr("%1% held-out accuracy").arg(e.accuracy * 100.0, 0, 'f', 0));
    m_accuracy->setToolTip(tr("Accuracy on %1 held-out sequences the model never trained on; "
                              "loss %2")
                               .arg(report.model ? report.model->settings.heldOutSize : 0)
                               .arg(e.loss, 0, 'f', 3));
    updateSteps(e.step, report.seconds);
    if (!m_reachedStep && e.accuracy >= kTarget) {
        m_reachedStep = e.step;
        m_reached->setText(tr("Reached %1% after %2 steps, %3 s of training.")
                               .arg(kTarget * 100.0, 0, 'f', 0)
                               .arg(e.step)
                               .arg(report.seconds, 0, 'f', 1));
    } else if (!m_reachedStep) {
        m_reached->setText(
            tr("Held-out loss %1 (chance: %2)")
                .arg(e.loss, 0, 'f', 3)
                .arg(report.model ? std::log(double(report.model->settings.model.vocabulary)) : 0.0,
                     0, 'f', 2));
    }
}

QString TrainScoreboard::accuracyText() const
{
    return m_accuracy->text();
}

QString TrainScoreboard::stepText() const
{
    return m_steps->text();
}

void TrainScoreboard::updateSteps(int64_t step, double seconds)
{
    m_steps->setText(tr("step %1 · %2 s").arg(step).arg(seconds, 0, 'f', 1));
}

} // namespace headlens
