// TitlePage: TextBlocks, head colour swatches, a two-column contents list and a HeatmapSheet.
#include "print/titlepage.h"

#include "plot/headcolors.h"
#include "print/heatmapsheet.h"
#include "print/laidoutpage.h"
#include "print/sheetbuilder.h"
#include "print/textblock.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QLocale>

namespace headlens {

namespace {

constexpr double kPageGap = 10.0;

QString sentenceOf(const std::vector<std::string> &tokens)
{
    QStringList words;
    for (const std::string &t : tokens)
        words << QString::fromStdString(t);
    return QString::fromUtf8("“%1”").arg(words.join(' '));
}

} // namespace

TitlePage::TitlePage(PrintSource source, QDate date) : m_source(std::move(source)), m_date(date)
{
    m_source.style.dark = false;
}

QStringList TitlePage::settingsLines() const
{
    const Trace &trace = *m_source.trace;
    const AttentionConfig &c = trace.config;
    QStringList lines;
    for (const auto &tokens : trace.input.tokens)
        lines << sentenceOf(tokens);
    lines << QString();
    lines << QString("b = %1 · n = %2 · n_kv = %3%4")
                 .arg(trace.batch())
                 .arg(trace.queryLength())
                 .arg(trace.keyLength())
                 .arg(trace.input.isCrossAttention() ? " (cross-attention)" : "");
    const QString kvHeads = c.kvHeadCount() < c.heads
                                ? QString(" · h_kv = %1 K/V heads").arg(c.kvHeadCount())
                                : QString();
    lines << QString("d_model = %1 · h = %2 heads%3 · d_k = %4 · d_v = %5")
                 .arg(c.dModel)
                 .arg(c.heads)
                 .arg(kvHeads)
                 .arg(c.headDimK())
                 .arg(c.headDimV());
    lines << QString("causal mask: %1 · bias: %2 · dropout: %3 (%4) · seed: %5")
                 .arg(c.causal ? "yes" : "no", c.bias ? "yes" : "no")
                 .arg(double(c.dropout))
                 .arg(c.training ? "training" : "evaluation")
                 .arg(qulonglong(c.seed));
    QStringList inside; // what acts inside attention, when anything does
    if (c.usesRope())
        inside << QString("RoPE%1 (θ = %2)")
                      .arg(c.attentionPositions == AttentionPositions::RopeInterleaved
                               ? ", interleaved pairs"
                               : "")
                      .arg(double(c.ropeTheta));
    if (c.attentionPositions == AttentionPositions::Alibi)
        inside << "ALiBi (a linear distance bias per head)";
    if (c.window > 0)
        inside << QString("sliding window of %1 keys").arg(c.window);
    if (!inside.isEmpty())
        lines << inside.join(" · ");
    return lines;
}

QString TitlePage::footerLine() const
{
    const Trace &trace = *m_source.trace;
    const AttentionConfig &c = trace.config;
    const QString text = trace.input.tokens.empty() ? QString() : sentenceOf(trace.input.tokens[0]);
    QString settings = QString("d_model %1 · h %2").arg(c.dModel).arg(c.heads);
    if (c.kvHeadCount() < c.heads)
        settings += QString(" · h_kv %1").arg(c.kvHeadCount());
    settings += QString(" · d_k %1 · d_v %2").arg(c.headDimK()).arg(c.headDimV());
    if (c.usesRope())
        settings += " · RoPE";
    if (c.attentionPositions == AttentionPositions::Alibi)
        settings += " · ALiBi";
    if (c.window > 0)
        settings += QString(" · window %1").arg(c.window);
    // The settings first: a long text is what gets elided.
    return QString("HeadLens · %1 · seed %2%3 · %4")
        .arg(settings)
        .arg(qulonglong(c.seed))
        .arg(c.causal ? " · causal" : "", text);
}

void TitlePage::paint(QCPPainter &painter, const QRectF &body, int firstStepPage,
                      LaidOutPage *laidOut) const
{
    LaidOutPage ignored;
    LaidOutPage &page = laidOut ? *laidOut : ignored;
    double y = body.top() + kPageGap * 2;
    const auto paintText = [&](const QString &what, const TextBlock &text) {
        text.paint(painter, QPointF(body.left(), y));
        page.addBlock(what, QRectF(body.left(), y, body.width(), text.height()));
        y += text.height();
    };
    paintText("title", TextBlock(tr("<b>Multi-head attention, step by step</b>"),
                                 TextBlock::font(24), body.width()));
    y += kPageGap;
    const QString printed = tr("Printed on %1 with HeadLens %2")
                                .arg(QLocale(QLocale::English).toString(m_date, "d MMMM yyyy"),
                                     QCoreApplication::applicationVersion().isEmpty()
                                         ? QString(HEADLENS_VERSION)
                                         : QCoreApplication::applicationVersion());
    paintText("date", TextBlock(TextBlock::plain(printed), TextBlock::font(9.5), body.width()));
    y += kPageGap * 1.5;
    paintText("settings",
              TextBlock(TextBlock::plain(settingsLines().join('\n')).replace('\n', "<br>"),
                        TextBlock::font(12), body.width()));
    y += kPageGap * 1.5;
    const double colours = paintColours(painter, QRectF(body.left(), y, body.width(), 0));
    page.addBlock("head colours", QRectF(body.left(), y, body.width(), colours));
    y += colours + kPageGap * 1.5;
    const double contents =
        paintContents(painter, QRectF(body.left(), y, body.width(), 0), firstStepPage);
    page.addBlock("contents", QRectF(body.left(), y, body.width(), contents));
    y += contents + kPageGap;
    paintText("glance", TextBlock(tr("<b>Every head at a glance</b> (attention weights, one "
                                     "heatmap per head; the step pages explain how they are "
                                     "made)"),
                                  TextBlock::font(10), body.width()));
    y += 4.0;
    HeatmapSheet sheet(SheetBuilder::heads(m_source.trace, m_source.batch, m_source.style),
                       m_source.style, 7.5);
    const QRectF area(body.left(), y, body.width(), body.bottom() - y);
    sheet.fitLabels(6.0, 8.0, area.size());
    page.addSheet(sheet, sheet.paint(painter, area));
}

// A swatch and "head i" in the head's colour, as many in a row as fit; returns the height.
double TitlePage::paintColours(QCPPainter &painter, const QRectF &rect) const
{
    const TextBlock heading(tr("<b>Head colours</b> (the same in every picture)"),
                            TextBlock::font(10), rect.width());
    heading.paint(painter, rect.topLeft());
    const QFont font = TextBlock::font(10, true);
    const QFontMetricsF metrics(font);
    const double swatch = metrics.height() * 0.9;
    const double cell = swatch + 5.0 + metrics.horizontalAdvance("head 88") + 8.0;
    const int perRow = std::max(1, int(rect.width() / cell));
    const double top = rect.top() + heading.height() + 4.0;
    painter.save();
    painter.setFont(font);
    const int heads = m_source.trace->heads();
    for (int i = 0; i < heads; ++i) {
        const QPointF at(rect.left() + (i % perRow) * cell,
                         top + (i / perRow) * (metrics.height() + 4.0));
        const QColor color = HeadColors::color(i, false);
        painter.fillRect(QRectF(at.x(), at.y() + (metrics.height() - swatch) / 2, swatch, swatch),
                         color);
        painter.setPen(color);
        painter.drawText(QRectF(at.x() + swatch + 6.0, at.y(), cell, metrics.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, tr("head %1").arg(i + 1));
    }
    painter.restore();
    const int rows = (heads + perRow - 1) / perRow;
    return heading.height() + 4.0 + rows * (metrics.height() + 4.0);
}

// The steps and their pages in two columns; returns the height.
double TitlePage::paintContents(QCPPainter &painter, const QRectF &rect, int firstStepPage) const
{
    const TextBlock heading(tr("<b>The steps</b>"), TextBlock::font(10), rect.width());
    heading.paint(painter, rect.topLeft());
    const auto &steps = m_source.trace->steps;
    const int half = int(steps.size() + 1) / 2;
    QString columns[2];
    for (int i = 0; i < int(steps.size()); ++i)
        columns[i / std::max(half, 1)] +=
            tr("%1. %2 — page %3<br>")
                .arg(i + 1)
                .arg(TextBlock::plain(QString::fromStdString(steps[size_t(i)].title)))
                .arg(firstStepPage + i);
    const double width = (rect.width() - kPageGap) / 2;
    const double top = rect.top() + heading.height() + 4.0;
    const TextBlock left(columns[0], TextBlock::font(9.5), width),
        right(columns[1], TextBlock::font(9.5), width);
    left.paint(painter, QPointF(rect.left(), top));
    right.paint(painter, QPointF(rect.left() + width + kPageGap, top));
    return heading.height() + 4.0 + std::max(left.height(), right.height());
}

} // namespace headlens
