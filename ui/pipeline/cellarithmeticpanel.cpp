// CellArithmeticPanel: HTML tables, so the numbers can be selected, copied and printed.
#include "pipeline/cellarithmeticpanel.h"

#include "steps/cellarithmetichtml.h"

#include <QScrollBar>
#include <QTextDocument>

namespace headlens {

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

// Behind another side tab nobody reads the panel: laying its HTML out (twice, to choose the
// tables' arrangement) took 40 ms of every Pipeline update at d_k = 64, most of the stall when
// the tab opened. It is rendered when its tab comes to the front.
void CellArithmeticPanel::render()
{
    if (!m_trace)
        return;
    m_renderPending = isHidden();
    if (m_renderPending)
        return;
    const CellArithmeticHtml text(*m_trace, m_batch, m_arithmetic, m_dark);
    const QString hint = tr("<p>Click any cell of a score or weight heatmap (here or in the Heads "
                            "tab) to explain it.</p>");
    QString html = text.html(CellArithmeticHtml::Everything, 10.0 * m_scale);
    m_stacked = needsStacking(html);
    if (m_stacked)
        html = text.html(CellArithmeticHtml::Everything | CellArithmeticHtml::TablesStacked,
                         10.0 * m_scale);
    html.insert(html.indexOf("</h3>") + 5, hint);
    const int scroll = verticalScrollBar()->value();
    setHtml(html);
    verticalScrollBar()->setValue(scroll);
}

// Side by side the two tables were squeezed by Qt's rich text until it broke words inside
// their cells ("4 “droppe↵d”" at 1920 x 1080 in presentation mode): one above the other when
// their natural width is wider than the panel.
bool CellArithmeticPanel::needsStacking(const QString &sideBySide) const
{
    QTextDocument natural;
    natural.setDefaultFont(font());
    natural.setDocumentMargin(document()->documentMargin());
    natural.setHtml(sideBySide);
    natural.setTextWidth(100000);
    return natural.idealWidth() > viewport()->width();
}

void CellArithmeticPanel::resizeEvent(QResizeEvent *event)
{
    QTextBrowser::resizeEvent(event);
    if (!m_trace || isHidden())
        return;
    const CellArithmeticHtml text(*m_trace, m_batch, m_arithmetic, m_dark);
    if (needsStacking(text.html(CellArithmeticHtml::Everything, 10.0 * m_scale)) != m_stacked)
        render();
}

// ShowToParent comes when the tab widget shows the page, even in a window not on screen yet.
bool CellArithmeticPanel::event(QEvent *event)
{
    if (event->type() == QEvent::ShowToParent && m_renderPending)
        render();
    return QTextBrowser::event(event);
}

} // namespace headlens
