// FourWaysPanel: HTML table of the comparison; nothing is computed here.
#include "pipeline/fourwayspanel.h"

#include <QLocale>
#include <QScrollBar>

namespace headlens {

namespace {

QString flops(double value)
{
    if (value >= 1e9)
        return QString::number(value / 1e9, 'f', 2) + " GFLOP";
    if (value >= 1e6)
        return QString::number(value / 1e6, 'f', 2) + " MFLOP";
    return QString::number(value / 1e3, 'f', 1) + " kFLOP";
}

} // namespace

FourWaysPanel::FourWaysPanel(QWidget *parent) : QTextBrowser(parent)
{
    setHtml(tr("<p>Comparing the four ways…</p>"));
}

void FourWaysPanel::setAnalysis(std::shared_ptr<const TraceAnalysis> analysis)
{
    m_analysis = std::move(analysis);
    render();
}

void FourWaysPanel::setFontScale(double scale)
{
    m_scale = scale;
    render();
}

void FourWaysPanel::render()
{
    if (!m_analysis || !m_analysis->compared) {
        setHtml(tr("<p>Comparing the four ways…</p>"));
        return;
    }
    const ImplementationComparison &c = m_analysis->comparison;
    const AttentionConfig &config = m_analysis->trace->config;
    QString html = QString("<div style='font-size:%1pt'>").arg(10.0 * m_scale);
    html += tr("<h3>Four ways, one answer</h3><p>The same layer written four ways; the largest "
               "difference from the trace over all of them is <b>%1</b>.</p>")
                .arg(c.largestDifference, 0, 'g', 2);
    // The PyTorch line on a row of its own, wrapping: beside the way's name, its unwrapped
    // width squeezed the "way" column to one letter in presentation mode.
    html += "<table cellspacing=0 cellpadding=4 border=1><tr><th>way</th>"
            "<th nowrap>max |Δ|</th><th>cost</th></tr>";
    for (const Implementation &way : c.ways) {
        html +=
            QString("<tr><td><b>%1</b><br/><small>%2</small></td><td nowrap>%4</td>"
                    "<td nowrap>%5</td></tr><tr><td colspan=3>"
                    "<pre style='white-space:pre-wrap'>%3</pre></td></tr>")
                .arg(QString::fromStdString(way.title).toHtmlEscaped(),
                     QString::fromStdString(way.note).toHtmlEscaped(),
                     QString::fromStdString(way.code).toHtmlEscaped(),
                     way.skipped ? tr("skipped") : QString::number(way.maxAbsDifference, 'g', 2),
                     flops(way.flops));
    }
    html += "</table>";
    html += tr("<h3>h heads or one wide head?</h3><table cellspacing=0 cellpadding=4 border=1>"
               "<tr><th></th><th>%1 heads of d_k = %2</th><th>1 head of d_k = %3</th></tr>"
               "<tr><td>attention FLOPs (scores, softmax, weighted sum)</td><td>%4</td>"
               "<td>%5</td></tr><tr><td>parameters (W_Q, W_K, W_V, W_O, biases)</td>"
               "<td>%6</td><td>%6</td></tr></table><p>Splitting costs about the same: the "
               "heads share the width instead of adding to it.</p></div>")
                .arg(config.heads)
                .arg(config.headDimK())
                .arg(config.heads * config.headDimK())
                .arg(flops(c.multiHeadFlops), flops(c.singleHeadFlops))
                .arg(QLocale().toString(qlonglong(c.parameters)));
    const int scroll = verticalScrollBar()->value();
    setHtml(html);
    verticalScrollBar()->setValue(scroll);
}

} // namespace headlens
