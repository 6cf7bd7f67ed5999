// CellArithmeticHtml: headings, numbered lines and tables of explainCell's numbers.
#include "steps/cellarithmetichtml.h"

#include "plot/headcolors.h"
#include "text/tokenizer.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace headlens {

namespace {

QString num(double v, int digits = 4)
{
    if (std::isinf(v))
        return v < 0 ? QString::fromUtf8("−∞") : QString::fromUtf8("∞");
    return QString::number(v, 'f', digits);
}

// Cells keep their numbers on one line ("nowrap"): narrow columns broke "1.7261" after the
// point in presentation mode. Qt's rich text still breaks at spaces there ("4↵“dropped”"),
// so a key's number and word, and the headers, are joined by no-break spaces.
QString tableStart()
{
    return "<table cellspacing=0 cellpadding=2 border=1>";
}

} // namespace

CellArithmeticHtml::CellArithmeticHtml(const Trace &trace, int batch,
                                       const CellArithmetic &arithmetic, bool dark)
    : m_trace(trace), m_batch(batch), m_a(arithmetic), m_dark(dark)
{}

QString CellArithmeticHtml::html(int parts, double points, int productColumns, int maxRows) const
{
    QString html = QString("<div style='font-size:%1pt'>").arg(points);
    if (parts & Heading)
        html += heading();
    html += lines(parts);
    QStringList tables;
    if (parts & SoftmaxTable)
        tables << softmaxTable(maxRows);
    if (parts & ProductsTable)
        tables << productsTable(std::max(productColumns, 1), maxRows);
    if (!tables.isEmpty()) // the numbers a little smaller than the words
        html += QString("<table style='font-size:%1pt'><tr><td valign=top>").arg(points * 0.9) +
                tables.join((parts & TablesStacked) ? "</td></tr><tr><td valign=top>"
                                                    : "</td><td width=16></td><td valign=top>") +
                "</td></tr></table>";
    return html + "</div>";
}

QString CellArithmeticHtml::heading() const
{
    const QString from = QString::fromStdString(
        Tokenizer::displayLabel(m_trace.input.queryLabel(m_batch, m_a.query)));
    const QString to =
        QString::fromStdString(Tokenizer::displayLabel(m_trace.input.keyLabel(m_batch, m_a.key)));
    // One numbering for people, the formulas' t_1 … t_n and head_1 … head_h: heads and tokens
    // both count from 1 ("head 2: query 9 … key 4" mixed a 1-based head with 0-based tokens).
    return tr("<h3><span style='color:%1'>head %2</span>: query %3 “%4” → key %5 “%6”</h3>")
        .arg(HeadColors::color(int(m_a.head), m_dark).name())
        .arg(m_a.head + 1)
        .arg(m_a.query + 1)
        .arg(from)
        .arg(m_a.key + 1)
        .arg(to);
}

QString CellArithmeticHtml::lines(int parts) const
{
    const CellArithmetic &a = m_a;
    QString html;
    const AttentionConfig &c = m_trace.config;
    if (parts & DotProduct) {
        QString source;
        if (c.usesRope())
            source += tr(" q and k as RoPE turned them (q_rot, k_rot).");
        if (c.kvHeadCount() < c.heads)
            source +=
                tr(" k comes from K/V head %1, shared by this head's group.").arg(a.kvHead + 1);
        html += tr("<p><b>1. Dot product</b> q · k = Σ<sub>j</sub> q<sub>j</sub> k<sub>j</sub> = "
                   "<b>%1</b> (trace: %2).%3</p>")
                    .arg(num(a.dot))
                    .arg(num(a.rawScore))
                    .arg(source);
    }
    if ((parts & Scale) && c.attentionPositions == AttentionPositions::Alibi)
        html += tr("<p><b>2. Scale and ALiBi</b> %1 × %2 + bias %3 (−m · (%4 − %5)) = "
                   "<b>%6</b></p>")
                    .arg(num(a.rawScore))
                    .arg(num(a.scaleFactor))
                    .arg(num(a.positionBias))
                    .arg(a.query + 1)
                    .arg(a.key + 1)
                    .arg(num(a.scaledScore));
    else if (parts & Scale)
        html += tr("<p><b>2. Scale</b> × %1 = <b>%2</b></p>")
                    .arg(num(a.scaleFactor))
                    .arg(num(a.scaledScore));
    if (parts & Mask)
        html += tr("<p><b>3. Mask</b> %1</p>")
                    .arg(a.masked ? tr("this key is masked: the score becomes −∞, its weight 0")
                                  : tr("not masked: the score stays %1").arg(num(a.scaledScore)));
    if (parts & Softmax)
        html += tr("<p><b>4. Softmax over the row</b> (max %1 subtracted first): weight = "
                   "exp(s − max) / Σ exp = %2 / %3 = <b>%4</b></p>")
                    .arg(num(a.rowMax))
                    .arg(num(a.rowExp[size_t(a.key)]))
                    .arg(num(a.rowExpSum))
                    .arg(num(a.recomputedWeight));
    if (parts & Dropout)
        html += tr("<p><b>5. After dropout</b> the weight is <b>%1</b> (trace softmax %2)</p>")
                    .arg(num(a.weight))
                    .arg(num(a.softmaxWeight));
    return html;
}

QString CellArithmeticHtml::productsTable(int columns, int maxRows) const
{
    const CellArithmetic &a = m_a;
    const int count = int(a.q.size());
    const int shown = maxRows > 0 ? std::min(count, maxRows * columns) : count;
    const int perColumn = (shown + columns - 1) / std::max(columns, 1);
    QString head = "<tr>";
    int groups = 0;
    for (int c = 0; c < columns && c * perColumn < shown; ++c, ++groups)
        head += "<th>j</th><th>q<sub>j</sub></th><th>k<sub>j</sub></th>"
                "<th>q<sub>j</sub>·k<sub>j</sub></th>";
    QString rows;
    for (int r = 0; r < perColumn; ++r) {
        rows += "<tr>";
        for (int c = 0; c < columns && c * perColumn < shown; ++c) {
            const int j = c * perColumn + r;
            if (j >= shown) {
                rows += "<td></td><td></td><td></td><td></td>";
                continue;
            }
            // Components and keys count from 1, as in Σ_j q_j k_j and t_1 … t_n.
            rows += QString("<td nowrap>%1</td><td nowrap>%2</td><td nowrap>%3</td>"
                            "<td nowrap>%4</td>")
                        .arg(j + 1)
                        .arg(num(a.q[size_t(j)]), num(a.k[size_t(j)]), num(a.products[size_t(j)]));
        }
        rows += "</tr>";
    }
    if (shown < count)
        rows += QString("<tr><td colspan=%1>%2</td></tr>")
                    .arg(4 * groups)
                    .arg(tr("… j = %1 to %2 left out (the sum in 1. has all %3)")
                             .arg(shown + 1)
                             .arg(count)
                             .arg(count));
    return tableStart() + head + "</tr>" + rows + "</table>";
}

// At most `maxRows` keys (all when 0), around the cell's own.
QString CellArithmeticHtml::softmaxTable(int maxRows) const
{
    const CellArithmetic &a = m_a;
    const int count = int(a.row.size());
    const int shown = maxRows > 0 ? std::min(count, maxRows) : count;
    const int first = std::clamp(int(a.key) - shown / 2, 0, count - shown);
    const auto leftOut = [](int from, int to) {
        return QString("<tr><td colspan=4>%1</td></tr>")
            .arg(tr("… keys %1 to %2 left out").arg(from + 1).arg(to));
    };
    QString rows;
    if (first > 0)
        rows += leftOut(0, first);
    for (size_t j = size_t(first); j < size_t(first + shown); ++j) {
        const std::string label = m_trace.input.keyLabel(m_batch, int64_t(j));
        // Dark text on the highlight: the dark theme's light text vanished on the yellow.
        const QString style =
            int64_t(j) == a.key ? " style='background:#ffe08a; color:#000000'" : "";
        rows += QString("<tr%1><td nowrap>%2&nbsp;“%3”</td><td nowrap>%4</td><td nowrap>%5</td>"
                        "<td nowrap>%6</td></tr>")
                    .arg(style)
                    .arg(j + 1)
                    .arg(label.empty() ? tr("pad")
                                       : QString::fromStdString(Tokenizer::displayLabel(label)))
                    .arg(a.rowMasked[j] ? tr("masked") : num(a.row[j]))
                    .arg(num(a.rowExp[j]))
                    .arg(num(a.rowExpSum > 0 ? a.rowExp[j] / a.rowExpSum : 0.0));
    }
    if (first + shown < count)
        rows += leftOut(first + shown, count);
    return tableStart() +
           "<tr><th>key</th><th>score&nbsp;s</th><th>exp(s&nbsp;−&nbsp;max)</th><th>weight</th></"
           "tr>" +
           rows + "</table>";
}

} // namespace headlens
