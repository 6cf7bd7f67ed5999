// StepperBar: First, Previous, Next, Last, a step list and Play/Pause with a speed.
#pragma once

#include <QStringList>
#include <QTimer>
#include <QWidget>

class QComboBox;
class QToolButton;

namespace headlens {

/// Passive: shows the current step and asks for another one through stepRequested; the view
/// decides. Playing asks for the next step every few seconds and stops at the last. The step
/// list always shows its whole text ("9 / 14 · Softmax"); when the bar is too narrow for the
/// buttons' words as well (presentation mode beside the Controls), the buttons keep only
/// their arrows and the speeds only their seconds.
class StepperBar : public QWidget
{
    Q_OBJECT
public:
    explicit StepperBar(QWidget *parent = nullptr);

    void setSteps(const QStringList &titles);
    void setCurrent(int index);
    int current() const { return m_current; }
    bool isPlaying() const { return m_timer.isActive(); }
    void setPlaying(bool playing);
    void setFontScale(double scale);
    /// True while the buttons show only their arrows.
    bool isCompact() const { return m_compact; }
    QString stepText() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

signals:
    void stepRequested(int index);

private:
    QToolButton *addButton(const QString &text, const QString &tip);
    void updateButtons();
    void fitLabels();
    void applyLabels(bool compact);
    void advance();
    int seconds() const;

    QToolButton *m_first, *m_previous, *m_next, *m_last, *m_play;
    QComboBox *m_list;
    QComboBox *m_speed;
    QTimer m_timer;
    int m_count = 0;
    int m_current = 0;
    bool m_compact = false;
};

} // namespace headlens
