// HandoutWriter: a PrintCanvas of PDF pages, a TitlePage, then a StepPage per step (and an
// AtlasPage).
#include "print/handoutwriter.h"

#include "print/atlaspage.h"
#include "print/handoutlayout.h"
#include "print/laidoutpage.h"
#include "print/printcanvas.h"
#include "print/steppage.h"
#include "print/titlepage.h"
#include "util/inputerror.h"

namespace headlens {

QPageLayout PageSetup::layout() const
{
    return QPageLayout(QPageSize(size), orientation, QMarginsF(0, 0, 0, 0));
}

HandoutWriter::HandoutWriter(std::shared_ptr<const Trace> trace,
                             std::shared_ptr<const TraceAnalysis> analysis, int batch,
                             PlotStyle style)
    : m_trace(std::move(trace)), m_analysis(std::move(analysis)), m_batch(batch), m_style(style)
{}

PrintSource HandoutWriter::source() const
{
    PrintSource source{m_trace, m_analysis, m_batch, m_style, {}};
    if (m_analysis && m_analysis->trace != m_trace)
        source.analysis.reset(); // weights of another trace
    source.cell = m_cell ? *m_cell : CellChoice::strongest(*m_trace, m_batch, 0);
    return source;
}

QStringList HandoutWriter::settingsLines() const
{
    return TitlePage(source()).settingsLines();
}

int HandoutWriter::write(const QString &path, std::vector<LaidOutPage> *laidOut) const
{
    if (!m_trace || m_trace->steps.empty())
        throw InputError("Cannot write " + path.toStdString() + ": there is no trace to print.");
    const PrintSource from = source();
    PrintCanvas canvas(path, m_page.layout());
    const HandoutLayout layout(canvas.rect(), PrintCanvas::layoutDpi());
    const TitlePage title(from);
    const QString footer = title.footerLine();
    const int steps = int(m_trace->steps.size());
    const int pages = steps + 1 + (m_atlas ? 1 : 0);
    std::vector<LaidOutPage> laid(static_cast<size_t>(pages));
    for (LaidOutPage &page : laid)
        page.footer = layout.footer();
    title.paint(canvas.painter(), layout.body(), 2, &laid[0]);
    layout.paintFooter(canvas.painter(), footer, 1, pages);
    if (m_progress && !m_progress(1, pages))
        return 0; // the canvas's QSaveFile is dropped uncommitted
    for (int step = 0; step < steps; ++step) {
        canvas.newPage();
        StepPage(from, step).paint(canvas.painter(), layout.body(), &laid[size_t(step) + 1]);
        layout.paintFooter(canvas.painter(), footer, step + 2, pages);
        if (m_progress && !m_progress(step + 2, pages))
            return 0;
    }
    if (m_atlas) {
        canvas.newPage();
        AtlasPage(m_atlas, m_atlasModel, m_style)
            .paint(canvas.painter(), layout.body(), &laid.back());
        layout.paintFooter(canvas.painter(), footer, pages, pages);
        if (m_progress && !m_progress(pages, pages))
            return 0;
    }
    canvas.finish();
    if (laidOut)
        *laidOut = std::move(laid);
    return pages;
}

} // namespace headlens
