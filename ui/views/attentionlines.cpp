// AttentionLines: a QPainter picture; lines first, then the labels over their ends.
#include "views/attentionlines.h"

#include "plot/stylefont.h"
#include "views/tracereader.h"

#include <QMouseEvent>
#include <QPainter>

#include <cmath>

namespace headlens {

namespace {

constexpr int kLinesMargin = 8;
constexpr int kGap = 6;           ///< between a label and its line's end
constexpr int kMinimumSpan = 160; ///< the lines' width, at least

} // namespace

AttentionLines::AttentionLines(QWidget *parent)
    : QWidget(parent), m_maker(this, [this](const LinesPicture &picture) {
          m_picture = picture;
          update();
      })
{
    setObjectName("attentionLines");
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::MinimumExpanding);
}

void AttentionLines::setTrace(std::shared_ptr<const Trace> trace, int batchIndex)
{
    m_trace = std::move(trace);
    m_batch = batchIndex;
    m_queries.clear();
    m_keys.clear();
    if (m_trace) {
        m_queries = TraceReader::queryLabels(*m_trace, batchIndex);
        m_keys = TraceReader::keyLabels(*m_trace, batchIndex);
    }
    if (m_focusToken >= int((m_focusSide == Side::Key ? m_keys : m_queries).size()))
        m_focusSide = Side::None, m_focusToken = -1;
    measureLabels();
    updateGeometry();
    update();
}

void AttentionLines::setHeads(std::vector<int> heads)
{
    m_heads = std::move(heads);
    update();
}

void AttentionLines::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    setFont(StyleFont::scaled(font(), style, 9.0)); // measured again in changeEvent
    updateGeometry();
    update();
}

void AttentionLines::setFocus(Side side, int token)
{
    m_focusSide = token < 0 ? Side::None : side;
    m_focusToken = m_focusSide == Side::None ? -1 : token;
    update();
}

std::vector<int> AttentionLines::drawnHeads() const
{
    const int count = m_trace ? m_trace->heads() : 0;
    std::vector<int> heads;
    for (int head : m_heads)
        if (head >= 0 && head < count)
            heads.push_back(head);
    if (m_heads.empty())
        for (int head = 0; head < count; ++head)
            heads.push_back(head);
    return heads;
}

std::vector<AttentionLines::Line> AttentionLines::visibleLines() const
{
    if (!m_trace)
        return {};
    return linesOf(*m_trace, m_batch, drawnHeads(), m_focusSide, m_focusToken);
}

std::vector<AttentionLines::Line> AttentionLines::linesOf(const Trace &trace, int b,
                                                          const std::vector<int> &heads, Side side,
                                                          int token)
{
    const Eigen::Index n = trace.input.queryLengthOf(b), nKv = trace.input.keyLengthOf(b);
    std::vector<Line> lines;
    for (int head : heads) {
        const ConstRowMatrixMap w = trace.tensor(keys::attentionWeights).matrix({b, head});
        for (Eigen::Index i = 0; i < n; ++i) {
            if (side == Side::Query && i != token)
                continue;
            for (Eigen::Index j = 0; j < nKv; ++j) {
                if (side == Side::Key && j != token)
                    continue;
                const double weight = w(i, j); // NaN fails the test
                // A masked key draws no line, whatever the weight the trace holds there.
                if (weight >= kThreshold && !TraceReader::isMasked(trace, b, int(i), int(j)))
                    lines.push_back({head, int(i), int(j), weight});
            }
        }
    }
    return lines;
}

int AttentionLines::minimumRowHeight() const
{
    return fontMetrics().height() + 6;
}

int AttentionLines::rowHeight() const
{
    // Rows spread over the height there is, up to three lines of text apart: ten tokens in a
    // tall window otherwise sat in a strip at the top with the lines too flat to follow.
    const int least = minimumRowHeight();
    const int rows = int(std::max(m_queries.size(), m_keys.size()));
    if (rows == 0)
        return least;
    const int room = (height() - 2 * kLinesMargin - least) / rows;
    return std::clamp(room, least, 3 * least);
}

int AttentionLines::labelWidth(const QStringList &labels) const
{
    // Measured in bold: the focused token is drawn bold and must not be cut.
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics metrics(bold);
    int width = 0;
    for (const QString &label : labels)
        width = std::max(width, metrics.horizontalAdvance(label));
    return width;
}

void AttentionLines::measureLabels()
{
    m_queryWidth = labelWidth(m_queries);
    m_keyWidth = labelWidth(m_keys);
}

int AttentionLines::top() const
{
    return kLinesMargin + minimumRowHeight(); // the column headings
}

QPointF AttentionLines::queryAnchor(int query) const
{
    return {double(kLinesMargin + m_queryWidth + kGap), top() + (query + 0.5) * rowHeight()};
}

QPointF AttentionLines::keyAnchor(int key) const
{
    return {double(width() - kLinesMargin - m_keyWidth - kGap), top() + (key + 0.5) * rowHeight()};
}

std::pair<AttentionLines::Side, int> AttentionLines::tokenAt(const QPointF &point) const
{
    const int row = int(std::floor((point.y() - top()) / rowHeight()));
    if (point.y() < top() || row < 0)
        return {Side::None, -1};
    if (point.x() <= queryAnchor(0).x() && row < m_queries.size())
        return {Side::Query, row};
    if (point.x() >= keyAnchor(0).x() && row < m_keys.size())
        return {Side::Key, row};
    return {Side::None, -1};
}

QSize AttentionLines::minimumSizeHint() const
{
    const int rows = int(std::max(m_queries.size(), m_keys.size()));
    return {2 * kLinesMargin + m_queryWidth + m_keyWidth + 2 * kGap + kMinimumSpan,
            top() + rows * minimumRowHeight() + kLinesMargin};
}

QSize AttentionLines::sizeHint() const
{
    const QSize least = minimumSizeHint();
    return {std::max(least.width(), 520), least.height()};
}

void AttentionLines::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), m_style.background());
    if (!m_trace)
        return;
    if (m_focusSide == Side::None)
        drawEveryLine(painter);
    else // one token's lines: a few dozen
        LinesPicture::draw(painter, visibleLines(), layout(), m_style.dark);
    const QColor text = m_style.foreground();
    const QColor quiet = m_style.dark ? QColor("#8a8f98") : QColor("#9a9a9a");
    const int h = rowHeight();
    const int heading = minimumRowHeight();
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(text);
    painter.drawText(QRect(kLinesMargin, kLinesMargin, width() / 2, heading),
                     Qt::AlignLeft | Qt::AlignVCenter, tr("query"));
    painter.drawText(QRect(width() / 2, kLinesMargin, width() / 2 - kLinesMargin, heading),
                     Qt::AlignRight | Qt::AlignVCenter, tr("key"));
    auto drawColumn = [&](const QStringList &labels, Side side, int x, int w, Qt::Alignment align) {
        for (int row = 0; row < labels.size(); ++row) {
            const bool focused = m_focusSide == side && m_focusToken == row;
            const bool dimmed = m_focusSide != Side::None && !focused && m_focusSide == side;
            painter.setFont(focused ? bold : font());
            painter.setPen(dimmed ? quiet : text);
            painter.drawText(QRect(x, top() + row * h, w, h), align | Qt::AlignVCenter,
                             labels[row]);
        }
    };
    drawColumn(m_queries, Side::Query, kLinesMargin, m_queryWidth, Qt::AlignRight);
    drawColumn(m_keys, Side::Key, width() - kLinesMargin - m_keyWidth, m_keyWidth, Qt::AlignLeft);
}

LinesLayout AttentionLines::layout() const
{
    return {queryAnchor(0).x(), keyAnchor(0).x(), double(top()), double(rowHeight())};
}

LinesPictureRequest AttentionLines::pictureRequest() const
{
    return {m_trace, m_batch, m_heads, layout(), size(), devicePixelRatioF(), m_style.dark};
}

bool AttentionLines::pictureReady() const
{
    return !m_trace || m_focusSide != Side::None || m_picture.request.sameAs(pictureRequest());
}

void AttentionLines::requestPicture()
{
    const LinesPictureRequest wanted = pictureRequest();
    if (pictureReady() || m_asked.sameAs(wanted))
        return;
    m_asked = wanted;
    // Every line (no token is hovered), collected in the pool too when there are many: at
    // 1,024 tokens that walk over every head's weights took 60 ms.
    const std::vector<int> heads = drawnHeads();
    const int64_t cells = int64_t(heads.size()) * m_trace->input.queryLengthOf(m_batch) *
                          m_trace->input.keyLengthOf(m_batch);
    if (cells > kInlineCells) {
        m_maker.start([wanted, trace = m_trace, b = m_batch, heads]() mutable {
            const std::vector<Line> lines = linesOf(*trace, b, heads, Side::None, -1);
            trace.reset(); // drawing them takes seconds at 1,024 tokens: the run may go meanwhile
            return LinesPicture::make(wanted, lines);
        });
        return;
    }
    std::vector<Line> lines = visibleLines();
    if (lines.size() <= kInlineLines) {
        m_maker.drop();
        m_picture = LinesPicture::make(wanted, lines);
        return;
    }
    m_maker.start([wanted, lines = std::move(lines)] { return LinesPicture::make(wanted, lines); });
}

// The picture for this trace, size and style. Until it comes, the last one: stretched onto
// these rows while the view is resized (the same trace), or as it is if its lines end where
// these labels are (the same text length and size); else the labels alone. Dropping the lines
// until the pool's picture came made them blink away on every step of a resize.
void AttentionLines::drawEveryLine(QPainter &painter)
{
    requestPicture();
    if (m_picture.image.isNull())
        return;
    const LinesPictureRequest wanted = pictureRequest();
    const LinesPictureRequest &shown = m_picture.request;
    const bool sameRows = shown.drawsFrom(m_trace) && shown.batch == m_batch;
    if (!sameRows && (shown.size != wanted.size || !(shown.layout == wanted.layout)))
        return;
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    painter.setTransform(shown.layout.mappedTo(wanted.layout), true);
    painter.drawImage(QPointF(0, 0), m_picture.image);
    painter.restore();
}

void AttentionLines::mouseMoveEvent(QMouseEvent *event)
{
    const auto [side, token] = tokenAt(event->position());
    if (side == m_focusSide && token == m_focusToken)
        return;
    setFocus(side, token);
    emit focusChanged(m_focusSide, m_focusToken);
}

void AttentionLines::leaveEvent(QEvent *)
{
    if (m_focusSide == Side::None)
        return;
    setFocus(Side::None, -1);
    emit focusChanged(Side::None, -1);
}

void AttentionLines::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange)
        measureLabels();
    QWidget::changeEvent(event);
}

} // namespace headlens
