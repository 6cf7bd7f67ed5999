// RopePanel: one pair of one head turned by RoPE, and the shift that leaves the scores alone.
#pragma once

#include "attention/trace.h"
#include "runner/positionshiftrunner.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLayout;
class QSpinBox;

namespace headlens {

class RopeArrows;
struct RopePair;

/// Pick a head, a pair j and two positions: q at position i and k at position j are drawn
/// before and after rotation (RopeArrows) with their numbers and angles, all read from the
/// trace (q_heads, q_rot, k_heads, k_rot) and RotaryEmbedding::angle. Below it, a spin box
/// shifts every position by s; the largest change of the scores comes back from a
/// PositionShiftRunner (shiftChanged / setShiftResult): nothing is computed here.
class RopePanel : public QWidget
{
    Q_OBJECT
public:
    explicit RopePanel(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace, int batch);
    /// Lets the trace go while the Pipeline tab is hidden and a newer one waits (PipelineView);
    /// draws nothing until the next setTrace.
    void releaseTrace() { m_trace.reset(); }
    /// The check for the trace shown and the shift chosen; others are ignored.
    void setShiftResult(const PositionShiftResult &result);
    /// 0-based head, pair, query and key positions (clamped), as the pickers would set them.
    void pick(int head, int pair, int query, int key);
    void setFontScale(double scale);
    void setDark(bool dark);

    int shift() const;
    /// The largest score difference shown, or -1 while it is being computed.
    double shownScoresDifference() const { return m_shownDifference; }
    /// The check whose answer is shown (valid when shownScoresDifference() >= 0).
    const PositionShiftCheck &shownCheck() const { return m_shownCheck; }
    QString numbersText() const;
    QString shiftText() const;
    RopeArrows *arrows() const { return m_arrows; }

signals:
    void shiftChanged(int shift);
    /// On screen or not: the runner checks only while someone can see the answer.
    void shownChanged(bool shown);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    QLayout *buildPickers(QWidget *content);
    QLayout *buildShiftRow(QWidget *content);
    void refresh();
    /// The numbers of `p` as sentences: the pair, theta_j, both turns and the share of q . k.
    QString describe(const RopePair &p, int pair, int64_t first, int64_t second) const;
    void fillTokens(QComboBox *box, bool keys);

    std::shared_ptr<const Trace> m_trace;
    int m_batch = 0;
    bool m_dark = false;
    double m_shownDifference = -1.0;
    PositionShiftCheck m_shownCheck;
    QSpinBox *m_head = nullptr;
    QSpinBox *m_pair = nullptr;
    QComboBox *m_query = nullptr;
    QComboBox *m_key = nullptr;
    RopeArrows *m_arrows = nullptr;
    QLabel *m_numbers = nullptr;
    QSpinBox *m_shift = nullptr;
    QLabel *m_shiftResult = nullptr;
};

} // namespace headlens
