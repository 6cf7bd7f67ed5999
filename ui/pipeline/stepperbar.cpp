// StepperBar: buttons and a timer; the step list doubles as "where am I" on a projector.
#include "pipeline/stepperbar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace headlens {

namespace {

// Arrows every font here has (DejaVu has no U+23F8 pause sign: it drew a missing-glyph box).
const char *const kPlay = "▶";
const char *const kPause = "▮▮";

} // namespace

StepperBar::StepperBar(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_first = addButton(QString::fromUtf8("« First"), tr("First step (Home)"));
    m_previous = addButton(QString::fromUtf8("◀ Previous"), tr("Previous step (Left)"));
    m_list = new QComboBox(this);
    m_list->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_list->setObjectName("stepList");
    m_list->setToolTip(tr("Jump to a step"));
    m_next = addButton(QString::fromUtf8("Next ▶"), tr("Next step (Right)"));
    m_last = addButton(QString::fromUtf8("Last »"), tr("Last step (End)"));
    m_play = addButton(QString::fromUtf8("▶ Play"), tr("Walk through the steps (Space)"));
    m_speed = new QComboBox(this);
    for (int seconds : {6, 3, 1})
        m_speed->addItem(QString(), seconds);
    m_speed->setCurrentIndex(1);
    m_speed->setToolTip(tr("Seconds per step while playing"));
    layout->addWidget(m_first);
    layout->addWidget(m_previous);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_next);
    layout->addWidget(m_last);
    layout->addSpacing(12);
    layout->addWidget(m_play);
    layout->addWidget(m_speed);
    connect(m_first, &QToolButton::clicked, this, [this] { emit stepRequested(0); });
    connect(m_previous, &QToolButton::clicked, this, [this] { emit stepRequested(m_current - 1); });
    connect(m_next, &QToolButton::clicked, this, [this] { emit stepRequested(m_current + 1); });
    connect(m_last, &QToolButton::clicked, this, [this] { emit stepRequested(m_count - 1); });
    connect(m_list, &QComboBox::activated, this, &StepperBar::stepRequested);
    connect(m_play, &QToolButton::clicked, this, [this] { setPlaying(!isPlaying()); });
    connect(m_speed, &QComboBox::currentIndexChanged, this,
            [this] { m_timer.setInterval(seconds() * 1000); });
    connect(&m_timer, &QTimer::timeout, this, &StepperBar::advance);
    m_timer.setInterval(seconds() * 1000);
    applyLabels(false);
    updateButtons();
}

// The words when they fit beside the whole step list, else the arrows alone.
void StepperBar::fitLabels()
{
    m_list->setMinimumWidth(m_list->sizeHint().width()); // never "9 / 14 · Soft"
    applyLabels(false);
    const bool compact = layout()->minimumSize().width() > width();
    if (compact)
        applyLabels(true);
}

void StepperBar::applyLabels(bool compact)
{
    m_compact = compact;
    const QString play = QString::fromUtf8(isPlaying() ? kPause : kPlay);
    m_first->setText(compact ? QString::fromUtf8("«") : QString::fromUtf8("« First"));
    m_previous->setText(compact ? QString::fromUtf8("‹") : QString::fromUtf8("◀ Previous"));
    m_next->setText(compact ? QString::fromUtf8("›") : QString::fromUtf8("Next ▶"));
    m_last->setText(compact ? QString::fromUtf8("»") : QString::fromUtf8("Last »"));
    m_play->setText(compact ? play : isPlaying() ? play + tr(" Pause") : play + tr(" Play"));
    const QStringList speeds =
        compact ? QStringList{tr("6 s"), tr("3 s"), tr("1 s")}
                : QStringList{tr("slow (6 s)"), tr("normal (3 s)"), tr("fast (1 s)")};
    for (int i = 0; i < m_speed->count(); ++i)
        m_speed->setItemText(i, speeds[i]);
}

void StepperBar::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitLabels();
}

QString StepperBar::stepText() const
{
    return m_list->currentText();
}

QToolButton *StepperBar::addButton(const QString &text, const QString &tip)
{
    auto *button = new QToolButton(this);
    button->setText(text);
    button->setToolTip(tip);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    button->setFocusPolicy(Qt::NoFocus); // keys belong to the view
    return button;
}

void StepperBar::setSteps(const QStringList &titles)
{
    m_count = int(titles.size());
    m_list->clear();
    for (int i = 0; i < m_count; ++i)
        m_list->addItem(QString("%1 / %2 · %3").arg(i + 1).arg(m_count).arg(titles[i]));
    m_current = std::clamp(m_current, 0, std::max(m_count - 1, 0));
    m_list->setCurrentIndex(m_current);
    updateButtons();
    fitLabels();
}

void StepperBar::setCurrent(int index)
{
    m_current = index;
    m_list->setCurrentIndex(index);
    updateButtons();
}

void StepperBar::setPlaying(bool playing)
{
    if (playing && m_current >= m_count - 1)
        emit stepRequested(0); // play from the start when at the end
    if (playing)
        m_timer.start();
    else
        m_timer.stop();
    applyLabels(m_compact);
}

void StepperBar::setFontScale(double scale)
{
    QFont f = font();
    f.setPointSizeF(10.0 * scale);
    for (QWidget *w : findChildren<QWidget *>())
        w->setFont(f);
    fitLabels();
}

void StepperBar::advance()
{
    if (m_current >= m_count - 1) {
        setPlaying(false);
        return;
    }
    emit stepRequested(m_current + 1);
    if (m_current >= m_count - 1)
        setPlaying(false);
}

int StepperBar::seconds() const
{
    return m_speed->currentData().toInt();
}

void StepperBar::updateButtons()
{
    m_first->setEnabled(m_current > 0);
    m_previous->setEnabled(m_current > 0);
    m_next->setEnabled(m_current < m_count - 1);
    m_last->setEnabled(m_current < m_count - 1);
    m_play->setEnabled(m_count > 1);
}

} // namespace headlens
