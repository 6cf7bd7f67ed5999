// CellArithmeticPanel: HTML tables, so the numbers can be selected, copied and printed.
#include "pipeline/cellarithmeticpanel.h"

#include "plot/headcolors.h"
#include "text/tokenizer.h"

#include <QScrollBar>

#include <cmath>

namespace headlens {

namespace {

QString num(double v, int digits = 4)
{
    if (std::isinf(v))
        return v < 0 ? QString::fromUtf8("−∞") : QString::fromUtf8("∞");
    return QString::number(v, 'f', digits);
}

} // namespace

CellArithmeticPanel::CellArithmeticPanel(QWidget *parent) : QTextBrowser(parent)
{
    setOpenLinks(false);
}

void CellArithmeticPanel::setTrace(std::shared_ptr<const Trace> trace, int batch)
{
    m_trace = std::move(trace);
    m_batch = batch;
    setCell(m_head, m_query, m_key);
}

void CellArithmeticPanel::setCell(int head, int query, int key)
{
    if (!m_trace)
        return;
    m_head = std::clamp(head, 0, m_trace->heads() - 1);
    m_query = std::clamp(query, 0, int(m_trace->queryLength()) - 1);
    m_key = std::clamp(key, 0, int(m_trace->keyLength()) - 1);
    m_arithmetic = explainCell(*m_trace, m_batch, m_head, m_query, m_key);
    render();
}

void CellArithmeticPanel::setFontScale(double scale)
{
    m_scale = scale;
    render();
}

void CellArithmeticPanel::setDark(bool dark)
{
    m_dark = dark;
    render();
}

QString CellArithmeticPanel::productsTable() const
{
    const CellArithmetic &a = m_arithmetic;
    QString rows;
    for (size_t j = 0; j < a.q.size(); ++j)
        rows += QString("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td></tr>")
                    .arg(j)
                    .arg(num(a.q[j]), num(a.k[j]), num(a.products[j]));
    return "<table cellspacing=0 cellpadding=2 border=1><tr><th>j</th><th>q<sub>j</sub></th>"
           "<th>k<sub>j</sub></th><th>q<sub>j</sub>·k<sub>j</sub></th></tr>" +
           rows + "</table>";
}

QString CellArithmeticPanel::softmaxTable() const
{
    const CellArithmetic &a = m_arithmetic;
    QString rows;
    for (size_t j = 0; j < a.row.size(); ++j) {
        const std::string label = m_trace->input.keyLabel(m_batch, int64_t(j));
        const QString style = int(j) == m_key ? " style='background:#ffe08a'" : "";
        rows += QString("<tr%1><td>%2 “%3”</td><td>%4</td><td>%5</td><td>%6</td></tr>")
                    .arg(style)
                    .arg(j)
                    .arg(label.empty() ? tr("pad")
                                       : QString::fromStdString(Tokenizer::displayLabel(label)))
                    .arg(a.rowMasked[j] ? tr("masked") : num(a.row[j]))
                    .arg(num(a.rowExp[j]))
                    .arg(num(a.rowExpSum > 0 ? a.rowExp[j] / a.rowExpSum : 0.0));
    }
    return "<table cellspacing=0 cellpadding=2 border=1><tr><th>key</th><th>score s</th>"
           "<th>exp(s − max)</th><th>weight</th></tr>" +
           rows + "</table>";
}

QString CellArithmeticPanel::scoreSteps() const
{
    const CellArithmetic &a = m_arithmetic;
    QString html;
    const AttentionConfig &c = m_trace->config;
    QString source;
    if (c.usesRope())
        source += tr(" q and k as RoPE turned them (q_rot, k_rot).");
    if (c.kvHeadCount() < c.heads)
        source += tr(" k comes from K/V head %1, shared by this head's group.").arg(a.kvHead + 1);
    html += tr("<p><b>1. Dot product</b> q · k = Σ<sub>j</sub> q<sub>j</sub> k<sub>j</sub> = "
               "<b>%1</b> (trace: %2).%3</p>")
                .arg(num(a.dot))
                .arg(num(a.rawScore))
                .arg(source);
    if (c.attentionPositions == AttentionPositions::Alibi)
        html += tr("<p><b>2. Scale and ALiBi</b> %1 × %2 + bias %3 (−m · (%4 − %5)) = "
                   "<b>%6</b></p>")
                    .arg(num(a.rawScore))
                    .arg(num(a.scaleFactor))
                    .arg(num(a.positionBias))
                    .arg(m_query)
                    .arg(m_key)
                    .arg(num(a.scaledScore));
    else
        html += tr("<p><b>2. Scale</b> × %1 = <b>%2</b></p>")
                    .arg(num(a.scaleFactor))
                    .arg(num(a.scaledScore));
    return html;
}

void CellArithmeticPanel::render()
{
    if (!m_trace)
        return;
    const CellArithmetic &a = m_arithmetic;
    const QString from = QString::fromStdString(
        Tokenizer::displayLabel(m_trace->input.queryLabel(m_batch, m_query)));
    const QString to =
        QString::fromStdString(Tokenizer::displayLabel(m_trace->input.keyLabel(m_batch, m_key)));
    const QString color = HeadColors::color(m_head, m_dark).name();
    QString html = QString("<div style='font-size:%1pt'>").arg(10.0 * m_scale);
    html += tr("<h3><span style='color:%1'>head %2</span>: query %3 “%4” → key %5 “%6”</h3>")
                .arg(color)
                .arg(m_head + 1)
                .arg(m_query)
                .arg(from)
                .arg(m_key)
                .arg(to);
    html += tr("<p>Click any cell of a score or weight heatmap (here or in the Heads tab) to "
               "explain it.</p>");
    html += scoreSteps();
    html += tr("<p><b>3. Mask</b> %1</p>")
                .arg(a.masked ? tr("this key is masked: the score becomes −∞, its weight 0")
                              : tr("not masked: the score stays %1").arg(num(a.scaledScore)));
    html += tr("<p><b>4. Softmax over the row</b> (max %1 subtracted first): weight = "
               "exp(s − max) / Σ exp = %2 / %3 = <b>%4</b></p>")
                .arg(num(a.rowMax))
                .arg(num(a.rowExp[size_t(m_key)]))
                .arg(num(a.rowExpSum))
                .arg(num(a.recomputedWeight));
    html += tr("<p><b>5. After dropout</b> the weight is <b>%1</b> (trace softmax %2)</p>")
                .arg(num(a.weight))
                .arg(num(a.softmaxWeight));
    html += "<table><tr><td valign=top>" + softmaxTable() +
            "</td><td width=16></td>"
            "<td valign=top>" +
            productsTable() + "</td></tr></table></div>";
    const int scroll = verticalScrollBar()->value();
    setHtml(html);
    verticalScrollBar()->setValue(scroll);
}

} // namespace headlens
