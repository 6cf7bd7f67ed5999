// HeadScoreTable: every layer's heads' scores at once, layers down and heads across.
#pragma once

#include "train/headpatternscores.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace headlens {

/// A compact table of HeadPatternScores: each cell a head's score, shaded by it, the strongest
/// heads starred, the layer the grid shows in bold; a line above says what the numbers are and
/// what chance is. Clicking a head asks for it (headChosen) so the grid can show its layer.
class HeadScoreTable : public QWidget
{
    Q_OBJECT
public:
    explicit HeadScoreTable(QWidget *parent = nullptr);

    /// Shows `scores` with layer `shownLayer` marked as the one on the grid.
    void setScores(const HeadPatternScores &scores, int shownLayer);
    /// The explanation of the numbers above the table.
    QString caption() const;
    /// The text of the cell of head `head` of layer `layer`.
    QString cellText(int layer, int head) const;
    QTableWidget *table() const { return m_table; }

    /// A head is marked strongest when its score is the highest of all, or at least
    /// kStrongShare of the highest, and above twice chance.
    static constexpr double kStrongShare = 0.9;
    /// The table asks for room up to this wide; a wider one scrolls sideways.
    static constexpr int kWidestTable = 640;
    /// Narrower, the caption would wrap into a column of single words.
    static constexpr int kNarrowest = 300;
    /// Whether `score` is one of the strongest of `scores` (see kStrongShare).
    static bool isStrong(const HeadPatternScores &scores, double score);
    /// "previous-token score", "antecedent score": what the numbers are.
    static QString scoreName(HeadPattern pattern);
    /// "0.83", or "★0.83" for one of the strongest: a cell's and a head caption's number.
    static QString cellTextOf(const HeadPatternScores &scores, double score);

signals:
    void headChosen(int layer, int head);

private:
    QLabel *m_caption = nullptr;
    QTableWidget *m_table = nullptr;
};

} // namespace headlens
