// ProblemBanner: says in plain words why the settings cannot be computed and offers one-click
// fixes.
#pragma once

#include "attention/attentionconfig.h"

#include <QFrame>

class QGridLayout;

namespace headlens {

class WholeWordsLabel;

class ProblemBanner : public QFrame
{
    Q_OBJECT
public:
    explicit ProblemBanner(QWidget *parent = nullptr);

    /// Shows the problem and one button per fix.
    void showProblem(const ConfigProblem &problem);
    /// Shows a message without fixes (e.g. an InputError from the core).
    void showMessage(const QString &message);
    void clear();
    QString message() const;
    /// The buttons, for tests and keyboard users.
    QList<QWidget *> fixButtons() const;

signals:
    void fixChosen(const headlens::ConfigFix &fix);

private:
    void clearButtons();

    WholeWordsLabel *m_text = nullptr;
    QGridLayout *m_buttons = nullptr;
};

} // namespace headlens
