// AttentionLines: the view BertViz made popular: queries on the left, keys on the right, a line
// from each query to each key it attends to, its opacity and thickness by the weight.
#pragma once

#include "attention/trace.h"
#include "plot/plotstyle.h"

#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

namespace headlens {

/// Draws the heads of one sequence of a trace as lines, one colour per head (HeadColors), all
/// heads overlaid or only those chosen. Hovering a token keeps only its lines (a query's on the
/// left, a key's on the right). At least as tall as its tokens need (a row per token at the
/// current font): in a scroll area a long text scrolls instead of squeezing its labels, and a
/// short one spreads its rows over the room there is.
class AttentionLines : public QWidget
{
    Q_OBJECT
public:
    /// Weights below this are not drawn: at 1/n_kv each, a uniform row of 200 keys would
    /// otherwise grey the whole picture.
    static constexpr double kThreshold = 0.02;

    struct Line
    {
        int head = 0;
        int query = 0;
        int key = 0;
        double weight = 0.0;
    };

    explicit AttentionLines(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace, int batchIndex);
    /// The heads drawn, 0-based; empty draws every head.
    void setHeads(std::vector<int> heads);
    void setPlotStyle(const PlotStyle &style);
    /// Keep only the lines of query `query` (side Query) or key `key` (side Key); -1 for all.
    enum class Side
    {
        None,
        Query,
        Key
    };
    void setFocus(Side side, int token);

    /// The lines drawn now, in drawing order (heads in order, then queries, then keys).
    std::vector<Line> visibleLines() const;
    /// Where a query's line starts and a key's line ends, in widget pixels.
    QPointF queryAnchor(int query) const;
    QPointF keyAnchor(int key) const;
    /// The token under `point`: its side and index, or Side::None.
    std::pair<Side, int> tokenAt(const QPointF &point) const;
    const QStringList &queryLabels() const { return m_queries; }
    const QStringList &keyLabels() const { return m_keys; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// The focus followed the mouse (hovering a token, or leaving the widget).
    void focusChanged(headlens::AttentionLines::Side side, int token);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    int minimumRowHeight() const;
    int rowHeight() const;
    int labelWidth(const QStringList &labels) const;
    int top() const;
    std::vector<int> drawnHeads() const;

    std::shared_ptr<const Trace> m_trace;
    int m_batch = 0;
    std::vector<RowMatrix> m_weights; ///< per head, (n, n_kv), NaN where masked
    QStringList m_queries;
    QStringList m_keys;
    std::vector<int> m_heads;
    Side m_focusSide = Side::None;
    int m_focusToken = -1;
    PlotStyle m_style;
};

} // namespace headlens
