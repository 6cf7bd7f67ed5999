// CellArithmeticPanel: one attention weight worked out with the real numbers, to check by hand.
#pragma once

#include "attention/cellarithmetic.h"

#include <QTextBrowser>

#include <memory>

namespace headlens {

/// q, k, their elementwise product, its sum, the scaling, the mask and the softmax over the
/// whole row, for head i, query q and key k. The numbers come from explainCell.
class CellArithmeticPanel : public QTextBrowser
{
    Q_OBJECT
public:
    explicit CellArithmeticPanel(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace, int batch);
    /// Lets the trace go while the Pipeline tab is hidden and a newer one waits (PipelineView);
    /// draws nothing until the next setTrace.
    void releaseTrace() { m_trace.reset(); }
    /// Head, query and key indices (0-based); out-of-range values are clamped.
    void setCell(int head, int query, int key);
    void setFontScale(double scale);
    /// The dark theme: the head's colour is chosen to stand out from a dark background.
    void setDark(bool dark);

    int head() const { return m_head; }
    int query() const { return m_query; }
    int key() const { return m_key; }
    /// The weight the panel shows (the trace's weights[b, head, query, key]).
    double shownWeight() const { return m_arithmetic.weight; }

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool event(QEvent *event) override;

private:
    void render();
    /// Whether `sideBySide` (the tables side by side) is wider than the panel.
    bool needsStacking(const QString &sideBySide) const;

    std::shared_ptr<const Trace> m_trace;
    int m_batch = 0;
    int m_head = 0, m_query = 0, m_key = 0;
    double m_scale = 1.0;
    bool m_dark = false;
    bool m_stacked = false;       ///< the tables one above the other: side by side is too wide
    bool m_renderPending = false; ///< hidden behind another side tab: rendered when shown
    CellArithmetic m_arithmetic;
};

} // namespace headlens
