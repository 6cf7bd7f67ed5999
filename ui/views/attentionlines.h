// AttentionLines: the view BertViz made popular: queries on the left, keys on the right, a line
// from each query to each key it attends to, its opacity and thickness by the weight.
#pragma once

#include "attention/trace.h"
#include "plot/plotstyle.h"
#include "runner/newestinpool.h"
#include "views/linespicture.h"

#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

namespace headlens {

/// Draws the heads of one sequence of a trace as lines, one colour per head (HeadColors), all
/// heads overlaid or only those chosen. Hovering a token keeps only its lines (a query's on the
/// left, a key's on the right). At least as tall as its tokens need (a row per token at the
/// current font): in a scroll area a long text scrolls instead of squeezing its labels, and a
/// short one spreads its rows over the room there is. Every line at once is a picture made in
/// ViewWorkPool when it has more than kInlineLines (the last one staying until it comes,
/// stretched onto the new rows while the view is resized);
/// a hovered token's few lines are drawn at once.
class AttentionLines : public QWidget
{
    Q_OBJECT
public:
    /// Weights below this are not drawn: at 1/n_kv each, a uniform row of 200 keys would
    /// otherwise grey the whole picture.
    static constexpr double kThreshold = 0.02;
    /// Pictures of at most this many lines are drawn on the UI thread: about 15 ms.
    static constexpr size_t kInlineLines = 256;
    /// Weights looked at on the UI thread to find the lines, in all heads drawn (well under a
    /// millisecond); beyond them the lines are found in the pool too.
    static constexpr int64_t kInlineCells = int64_t(1) << 16;

    using Line = AttentionLine;

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

    /// The picture of every line shows what the view holds now (or no picture is needed: no
    /// trace, a hovered token); false while the pool makes it.
    bool pictureReady() const;
    /// Asks for the picture of every line if it is not ready and not asked for: the view asks
    /// when it paints, a screenshot taken before that asks here.
    void requestPicture();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// The focus followed the mouse (hovering a token, or leaving the widget).
    void focusChanged(headlens::AttentionLines::Side side, int token);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    int minimumRowHeight() const;
    int rowHeight() const;
    int labelWidth(const QStringList &labels) const;
    /// Measures both columns' labels again (a new text or font): every anchor needs their
    /// widths, and measuring them per line was most of a paint (text shaping per label).
    void measureLabels();
    int top() const;
    std::vector<int> drawnHeads() const;
    /// The lines of `heads` of sequence `b` of `trace` at or above kThreshold, in drawing
    /// order, only those of `token` on `side` unless Side::None. Reads the trace where it is:
    /// a copy of every head's weights (48 MB at 1,024 tokens) took 90 ms of the UI thread on
    /// each new trace, even with the Lines tab hidden.
    static std::vector<Line> linesOf(const Trace &trace, int b, const std::vector<int> &heads,
                                     Side side, int token);
    LinesLayout layout() const;
    LinesPictureRequest pictureRequest() const;
    void drawEveryLine(QPainter &painter);

    std::shared_ptr<const Trace> m_trace;
    int m_batch = 0;
    QStringList m_queries;
    QStringList m_keys;
    int m_queryWidth = 0; ///< labelWidth(m_queries) at the current font
    int m_keyWidth = 0;   ///< labelWidth(m_keys)
    std::vector<int> m_heads;
    Side m_focusSide = Side::None;
    int m_focusToken = -1;
    PlotStyle m_style;
    LinesPicture m_picture;      ///< the newest picture that came
    LinesPictureRequest m_asked; ///< the newest picture asked for
    NewestInPool<LinesPicture> m_maker;
};

} // namespace headlens
