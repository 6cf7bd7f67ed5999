// CellArithmeticPanel: HTML tables, so the numbers can be selected, copied and printed.
#include "pipeline/cellarithmeticpanel.h"

#include "pipeline/cellarithmetichtml.h"

#include <QScrollBar>

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

void CellArithmeticPanel::render()
{
    if (!m_trace)
        return;
    const CellArithmeticHtml text(*m_trace, m_batch, m_arithmetic, m_dark);
    const QString hint = tr("<p>Click any cell of a score or weight heatmap (here or in the Heads "
                            "tab) to explain it.</p>");
    QString html = text.html(CellArithmeticHtml::Everything, 10.0 * m_scale);
    html.insert(html.indexOf("</h3>") + 5, hint);
    const int scroll = verticalScrollBar()->value();
    setHtml(html);
    verticalScrollBar()->setValue(scroll);
}

} // namespace headlens
