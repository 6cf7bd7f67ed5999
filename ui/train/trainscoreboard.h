// TrainScoreboard: the held-out accuracy, step count and time in large type, for a classroom.
#pragma once

#include "train/trainingreport.h"

#include <QWidget>

#include <optional>

class QLabel;

namespace headlens {

/// Passive. "99% held-out accuracy · step 120 · 1.8 s", plus when 99% was first reached, so a
/// class can compare runs ("99% after 120 steps, 1.8 s").
class TrainScoreboard : public QWidget
{
    Q_OBJECT
public:
    static constexpr double kTarget = 0.99;

    explicit TrainScoreboard(QWidget *parent = nullptr);

    /// A new run (or a reset): nothing reached yet.
    void clear();
    void setMetrics(const TrainingMetrics &metrics);
    void setReport(const TrainingReport &report);

    QString accuracyText() const;
    QString stepText() const;

private:
    void updateSteps(int64_t step, double seconds);

    QLabel *m_accuracy = nullptr;
    QLabel *m_steps = nullptr;
    QLabel *m_reached = nullptr;
    std::optional<int64_t> m_reachedStep;
};

} // namespace headlens
