// ProblemBanner: a warm, readable box; hidden while everything is fine.
#include "panels/problembanner.h"

#include "panels/wholewordslabel.h"

#include <QGridLayout>
#include <QPushButton>
#include <QVBoxLayout>

namespace headlens {

ProblemBanner::ProblemBanner(QWidget *parent) : QFrame(parent)
{
    setObjectName("problemBanner");
    setStyleSheet("#problemBanner { background: #fff3cd; border: 1px solid #e0a800;"
                  " border-radius: 6px; } #problemBanner QLabel { color: #5a4300; }");
    auto *layout = new QVBoxLayout(this);
    m_text = new WholeWordsLabel(this); // a tensor's name or a path is not cut mid-word
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_buttons = new QGridLayout; // two fixes per row: the dock stays narrow
    layout->addWidget(m_text);
    layout->addLayout(m_buttons);
    hide();
}

void ProblemBanner::showProblem(const ConfigProblem &problem)
{
    showMessage(QString::fromStdString(problem.message));
    for (const ConfigFix &fix : problem.fixes) {
        auto *button = new QPushButton(QString::fromStdString(fix.label), this);
        button->setToolTip(
            tr("Set %1 to %2").arg(QString::fromStdString(fix.field)).arg(fix.value));
        connect(button, &QPushButton::clicked, this, [this, fix] { emit fixChosen(fix); });
        const int index = m_buttons->count();
        m_buttons->addWidget(button, index / 2, index % 2);
    }
}

void ProblemBanner::showMessage(const QString &message)
{
    clearButtons();
    m_text->setMessage(QString("⚠ ") + message);
    show();
}

void ProblemBanner::clear()
{
    clearButtons();
    m_text->setMessage({});
    hide();
}

QString ProblemBanner::message() const
{
    return m_text->message();
}

QList<QWidget *> ProblemBanner::fixButtons() const
{
    QList<QWidget *> buttons;
    for (int i = 0; i < m_buttons->count(); ++i) {
        if (QWidget *w = m_buttons->itemAt(i)->widget())
            buttons << w;
    }
    return buttons;
}

void ProblemBanner::clearButtons()
{
    for (QWidget *button : fixButtons()) {
        m_buttons->removeWidget(button);
        button->deleteLater();
    }
}

} // namespace headlens
