// HeadScoreBar: "Score heads against" a pattern, the Story button, and what the scores mean.
#pragma once

#include "train/headpatternscores.h"

#include <QWidget>

#include <array>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;

namespace headlens {

/// A row above the heads: the pattern (None, previous token, induction, the story relations),
/// "Story" (a generated story with its relations as the text) and one line saying what the
/// numbers on the heads are, or why there are none. Passive: the page decides what it says.
class HeadScoreBar : public QWidget
{
    Q_OBJECT
public:
    explicit HeadScoreBar(QWidget *parent = nullptr);

    /// The chosen pattern; nothing for None.
    std::optional<HeadPattern> pattern() const;
    void setPattern(std::optional<HeadPattern> pattern);
    /// The relation items enabled, each with how many relations of its kind the story holds,
    /// or disabled with `whyNot` (what to do to get an annotated text) as their tooltip.
    void setRelations(bool available, const QString &whyNot, const std::array<int, 3> &counts);
    /// The sentence after the controls: what the scores mean, or why there are none.
    void setStatus(const QString &text);

    QComboBox *patternBox() const { return m_pattern; }
    QPushButton *storyButton() const { return m_story; }
    QLabel *statusLabel() const { return m_status; }

signals:
    void patternChanged();
    void storyRequested();

private:
    QComboBox *m_pattern = nullptr;
    QPushButton *m_story = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace headlens
