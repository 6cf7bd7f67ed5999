// StepPicture: SplitBarWidget rendered, CellArithmeticHtml laid out, OutputProjectionPanel's plots.
#include "print/steppicture.h"

#include "plot/heatmapplot.h"
#include "print/textblock.h"
#include "steps/cellarithmetichtml.h"
#include "steps/outputprojectionpanel.h"
#include "steps/splitbarwidget.h"
#include "text/tokenizer.h"

#include <qcustomplot.h>

namespace headlens {

namespace {

constexpr double kGap = 6.0;

} // namespace

StepPicture::Kind StepPicture::kindOf(StepKind step)
{
    switch (step) {
    case StepKind::Tokens:
        return Kind::Tokens;
    case StepKind::Split:
    case StepKind::Transpose:
        return Kind::Split;
    case StepKind::WeightedSum:
    case StepKind::TransposeBack:
    case StepKind::Concat:
        return Kind::Concat;
    case StepKind::Scores:
    case StepKind::Scale:
    case StepKind::Mask:
    case StepKind::Softmax:
    case StepKind::Dropout:
        return Kind::Cell;
    case StepKind::OutputProjection:
        return Kind::Projection;
    default:
        return Kind::None;
    }
}

StepPicture::StepPicture(PrintSource source, double points)
    : m_source(std::move(source)), m_points(points)
{}

StepPicture::~StepPicture() = default;

// The lines that lead to this step, and the table it needs.
int StepPicture::cellParts(StepKind step) const
{
    using H = CellArithmeticHtml;
    switch (step) {
    case StepKind::Scores:
        return H::Heading | H::DotProduct | H::ProductsTable;
    case StepKind::Scale:
        return H::Heading | H::DotProduct | H::Scale;
    case StepKind::Mask:
        return H::Heading | H::DotProduct | H::Scale | H::Mask;
    case StepKind::Softmax:
        return H::Heading | H::DotProduct | H::Scale | H::Mask | H::Softmax | H::SoftmaxTable;
    default:
        return H::Everything & ~H::ProductsTable;
    }
}

// The products table in as many groups of rows side by side as the width holds; the tables
// cut to fewer rows when they are still taller than `room` (the first components and the keys
// around the cell's stay).
QString StepPicture::cellHtml(StepKind step, const QSizeF &room) const
{
    using H = CellArithmeticHtml;
    const Trace &trace = *m_source.trace;
    const CellChoice &c = m_source.cell;
    const CellArithmetic arithmetic = explainCell(trace, m_source.batch, c.head, c.query, c.key);
    const CellArithmeticHtml text(trace, m_source.batch, arithmetic, false);
    const int parts = cellParts(step);
    QFont font;
    font.setPointSizeF(m_points);
    // The tables alone decide the groups: the lines above them wrap at any width (measured
    // with them, a long line of RoPE and GQA kept a d_k of 64 in one group of 64 rows).
    const int tables = parts & (H::ProductsTable | H::SoftmaxTable | H::TablesStacked);
    // The most groups whose tables fit the width (more groups, wider tables): halving, since
    // each trial lays the whole table out.
    const auto fitsWidth = [&](int groups) {
        return TextBlock(text.html(tables, m_points, groups), font, 1e6).idealWidth() <=
               room.width();
    };
    int columns = 1;
    if (parts & H::ProductsTable) {
        int tooWide = 9;
        while (tooWide - columns > 1) {
            const int groups = (columns + tooWide) / 2;
            (fitsWidth(groups) ? columns : tooWide) = groups;
        }
    }
    const auto height = [&](const QString &html) {
        return TextBlock(html, font, room.width()).height();
    };
    const QString whole = text.html(parts, m_points, columns);
    if (!(parts & (H::ProductsTable | H::SoftmaxTable)) || height(whole) <= room.height())
        return whole;
    // The most rows that fit: the height grows with them.
    int fits = 1, tooMany = int(std::max(arithmetic.q.size(), arithmetic.row.size())) + 1;
    while (tooMany - fits > 1) {
        const int rows = (fits + tooMany) / 2;
        (height(text.html(parts, m_points, columns, rows)) <= room.height() ? fits : tooMany) =
            rows;
    }
    return text.html(parts, m_points, columns, fits);
}

// Position, token and id in one long table, or in as few groups of rows side by side as make it
// fit `room` (the widest that fits when none does).
QString StepPicture::tokensHtml(const QSizeF &room) const
{
    const Trace &trace = *m_source.trace;
    const int b = m_source.batch;
    const int n = int(trace.input.queryLengthOf(b));
    const Tensor &ids = trace.tensor(keys::tokenIds);
    QFont font;
    font.setPointSizeF(m_points + 2.0);
    const QString cell = "<td style='padding: 3px 10px'>%1</td>";
    QString widest;
    for (int groups = 1; groups <= 6; ++groups) {
        const int rows = (n + groups - 1) / groups;
        QString html = "<table cellspacing=0 cellpadding=3 border=1><tr>";
        for (int g = 0; g < groups && g * rows < n; ++g)
            html += "<th>t</th><th>token</th><th>id</th>";
        html += "</tr>";
        for (int r = 0; r < rows; ++r) {
            html += "<tr>";
            for (int g = 0; g < groups && g * rows < n; ++g) {
                const int i = g * rows + r;
                if (i >= n) {
                    html += "<td></td><td></td><td></td>";
                    continue;
                }
                html += cell.arg(i + 1) + // t_1 … t_n, as the formulas beside it count
                        cell.arg(TextBlock::plain(QString::fromStdString(
                            Tokenizer::displayLabel(trace.input.queryLabel(b, i))))) +
                        cell.arg(double(ids.at({b, i})));
            }
            html += "</tr>";
        }
        html = "<div style='font-size:" + QString::number(m_points + 2.0) + "pt'>" + html +
               "</table></div>";
        const TextBlock table(html, font, 1e6);
        if (table.idealWidth() > room.width())
            break;
        widest = html;
        if (table.height() <= room.height())
            return html;
    }
    return widest;
}

double StepPicture::splitHeight() const
{
    // SplitBarWidget's geometry at this font scale, with head rows up to 16 points tall.
    const double s = m_points / 9.5;
    const double label = 20.0 * s;
    const double bar = std::clamp(30.0 * s, 12.0, 60.0);
    const double rowsTop = label + 4.0 + bar + label * 1.6;
    const double row = std::min(bar, 16.0 * s);
    return rowsTop + m_source.trace->heads() * (row + 3.0) + 4.0;
}

QSizeF StepPicture::sizeIn(const TraceStep &step, const QSizeF &room)
{
    QFont font;
    font.setPointSizeF(m_points);
    const double w = room.width();
    double height = 0.0;
    switch (kindOf(step.kind)) {
    case Kind::None:
        return QSizeF(0, 0);
    case Kind::Tokens:
        height = TextBlock(tokensHtml(room), font, w).height();
        break;
    case Kind::Split:
    case Kind::Concat:
        height = splitHeight() + kGap + 3.0 * QFontMetricsF(font).lineSpacing();
        break;
    case Kind::Cell: {
        QString html = cellHtml(step.kind, room);
        height = TextBlock(html, font, w).height();
        m_laidCell = LaidCell{step.kind, room, height, std::move(html)};
        break;
    }
    case Kind::Projection: {
        ensureProjection();
        const ProjectionLayout at = projectionLayout(w, 0.0);
        height = TextBlock(m_projection->equation(), font, w).height() + kGap +
                 std::max(at.bars.bottom(), at.weights.bottom());
        break;
    }
    }
    return QSizeF(w, height); // may be more than room: the page then lays out otherwise
}

void StepPicture::paint(QCPPainter &painter, const TraceStep &step, const QRectF &rect)
{
    const Kind kind = kindOf(step.kind);
    painter.save();
    painter.setClipRect(rect); // never over the footer, whatever the text needs
    paintKind(painter, kind, step, rect);
    painter.restore();
}

void StepPicture::paintKind(QCPPainter &painter, Kind kind, const TraceStep &step,
                            const QRectF &rect)
{
    if (kind == Kind::Split || kind == Kind::Concat) {
        // Concat closes the head rows into one bar; the other steps show the rows.
        paintSplit(painter, kind, step.kind == StepKind::Concat ? 0.0 : 1.0, rect);
    } else if (kind == Kind::Tokens) {
        QFont font;
        font.setPointSizeF(m_points);
        TextBlock(tokensHtml(rect.size()), font, rect.width()).paint(painter, rect.topLeft());
    } else if (kind == Kind::Cell) {
        QFont font;
        font.setPointSizeF(m_points);
        // The table sizeIn chose when the page gives it the room it asked for (choosing again
        // lays the table out a dozen times); chosen again for a smaller room.
        const bool asLaid = m_laidCell && m_laidCell->step == step.kind &&
                            qFuzzyCompare(m_laidCell->room.width(), rect.width()) &&
                            rect.height() >= m_laidCell->height - 0.5 &&
                            rect.height() <= m_laidCell->room.height() + 0.5;
        TextBlock(asLaid ? m_laidCell->html : cellHtml(step.kind, rect.size()), font, rect.width())
            .paint(painter, rect.topLeft());
    } else if (kind == Kind::Projection) {
        paintProjection(painter, rect);
    }
}

void StepPicture::paintSplit(QCPPainter &painter, Kind kind, double progress, const QRectF &rect)
{
    const Trace &trace = *m_source.trace;
    if (!m_bar)
        m_bar = std::make_unique<SplitBarWidget>();
    const bool split = kind == Kind::Split;
    m_bar->setFontScale(m_points / 9.5);
    m_bar->setData(m_source.trace, m_source.batch, m_source.cell.query,
                   split ? SplitBarWidget::Mode::Split : SplitBarWidget::Mode::Concat);
    m_bar->moveTo(progress, false); // both layouts stay drawn faintly, so a still shows both
    // Follow the first number of head 2 (of head 1 when there is one head).
    const int width = split ? trace.config.headDimK() : trace.config.headDimV();
    m_bar->pickFeature(trace.heads() > 1 ? width : 0);
    m_bar->resize(int(rect.width()), int(splitHeight()));
    m_bar->render(&painter, rect.topLeft().toPoint(), QRegion(), QWidget::RenderFlags());
    QFont font;
    font.setPointSizeF(m_points - 0.5);
    TextBlock(TextBlock::plain(m_bar->routeText()), font, rect.width())
        .paint(painter, rect.topLeft() + QPointF(0, splitHeight() + kGap));
}

void StepPicture::ensureProjection()
{
    if (m_projection)
        return;
    m_projection = std::make_unique<OutputProjectionPanel>();
    PlotStyle style = m_source.style;
    style.dark = false;
    style.fontScale = m_points / 9.5;
    m_projection->setPlotStyle(style);
    m_projection->setTrace(m_source.trace, m_source.batch);
    m_projection->setAnalysis(m_source.analysis);
}

void StepPicture::paintProjection(QCPPainter &painter, const QRectF &rect)
{
    ensureProjection();
    QFont font;
    font.setPointSizeF(m_points);
    const TextBlock equation(m_projection->equation(), font, rect.width());
    equation.paint(painter, rect.topLeft());
    const ProjectionLayout at =
        projectionLayout(rect.width(), rect.top() + equation.height() + kGap);
    const QRectF bars = at.bars.translated(rect.left(), 0);
    QCustomPlot *plot = m_projection->barsPlot();
    // The heads' names in as many columns as the bars' width holds (one row was cut to "h").
    QFont legend = plot->legend->font();
    plot->legend->setWrap(std::max(
        1, int(bars.width() / (QFontMetricsF(legend).horizontalAdvance("head 88") + 60.0))));
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst, true); // rearranged at the new wrap
    plot->resize(bars.size().toSize());
    painter.save();
    painter.translate(bars.topLeft());
    plot->toPainter(&painter, plot->width(), plot->height());
    painter.restore();
    if (at.weights.isEmpty())
        return;
    HeatmapPlot *wo = m_projection->weightsPlot();
    wo->resize(at.weights.size().toSize());
    wo->setTitle(wo->title()); // elided to its new width
    painter.save();
    painter.translate(at.weights.topLeft() + QPointF(rect.left(), 0));
    wo->toPainter(&painter, wo->width(), wo->height());
    painter.restore();
}

// The bars and W_O side by side, or W_O under the bars in a narrow column; x from 0.
StepPicture::ProjectionLayout StepPicture::projectionLayout(double width, double top) const
{
    const bool weights = m_projection->largestGap() >= 0.0; // W_O is known
    ProjectionLayout at;
    if (width < 520.0) {
        const double side = std::min(width * 0.8, 320.0);
        at.bars = QRectF(0, top, width, width * 0.7);
        if (weights)
            at.weights = QRectF((width - side) / 2, at.bars.bottom() + kGap, side, side);
        return at;
    }
    const double side = std::min(width * 0.4, 320.0);
    at.bars = QRectF(0, top, weights ? width - side - kGap : width, side);
    if (weights)
        at.weights = QRectF(width - side, top, side, side);
    return at;
}

} // namespace headlens
