// HandoutWriter: QPdfWriter pages; each step is the pipeline view grabbed at a fixed size.
#include "pipeline/handoutwriter.h"

#include "pipeline/pipelineview.h"
#include "util/inputerror.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

namespace headlens {

namespace {

void settle(QWidget *widget)
{
    QApplication::processEvents();
    for (QCustomPlot *plot : widget->findChildren<QCustomPlot *>())
        plot->replot(QCustomPlot::rpImmediateRefresh);
    QApplication::processEvents();
}

void failIf(bool failed, const QString &path, const char *why)
{
    if (failed)
        throw InputError("Cannot write " + path.toStdString() + ": " + why);
}

// The picture scaled to fit below `top`, centered.
void drawFitted(QPainter &p, const QPixmap &picture, const QRect &area)
{
    QSize size = picture.size();
    size.scale(area.size(), Qt::KeepAspectRatio);
    const QRect target(area.x() + (area.width() - size.width()) / 2, area.y(), size.width(),
                       size.height());
    p.drawPixmap(target, picture);
}

} // namespace

HandoutWriter::HandoutWriter(std::shared_ptr<const Trace> trace,
                             std::shared_ptr<const TraceAnalysis> analysis, int batch,
                             PlotStyle style)
    : m_trace(std::move(trace)), m_analysis(std::move(analysis)), m_batch(batch), m_style(style)
{}

QStringList HandoutWriter::settingsLines() const
{
    const AttentionConfig &c = m_trace->config;
    QStringList lines;
    for (const auto &tokens : m_trace->input.tokens) {
        QStringList words;
        for (const std::string &t : tokens)
            words << QString::fromStdString(t);
        lines << QString::fromUtf8("“%1”").arg(words.join(' '));
    }
    lines << QString();
    lines << QString("b = %1 · n = %2 · n_kv = %3%4")
                 .arg(m_trace->batch())
                 .arg(m_trace->queryLength())
                 .arg(m_trace->keyLength())
                 .arg(m_trace->input.isCrossAttention() ? " (cross-attention)" : "");
    lines << QString("d_model = %1 · h = %2 heads · d_k = %3 · d_v = %4")
                 .arg(c.dModel)
                 .arg(c.heads)
                 .arg(c.headDimK())
                 .arg(c.headDimV());
    lines << QString("causal mask: %1 · bias: %2 · dropout: %3 (%4) · seed: %5")
                 .arg(c.causal ? "yes" : "no", c.bias ? "yes" : "no")
                 .arg(double(c.dropout))
                 .arg(c.training ? "training" : "evaluation")
                 .arg(qulonglong(c.seed));
    return lines;
}

int HandoutWriter::write(const QString &path, QSize viewSize) const
{
    failIf(!m_trace || m_trace->steps.empty(), path, "there is no trace to print");
    PipelineView view;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.setPlotStyle(m_style);
    view.setTrace(m_trace, m_batch);
    view.setAnalysis(m_analysis);
    view.resize(viewSize);
    view.show();
    settle(&view);

    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageOrientation(QPageLayout::Landscape);
    writer.setResolution(150);
    writer.setCreator("HeadLens");
    writer.setTitle("Multi-head attention, step by step");
    QPainter p;
    failIf(!p.begin(&writer), path, "the PDF file could not be opened");
    const QRect page(QPoint(0, 0), writer.pageLayout().paintRectPixels(writer.resolution()).size());
    QFont title = p.font();
    title.setPointSizeF(26);
    title.setBold(true);
    p.setFont(title);
    p.drawText(page.adjusted(0, page.height() / 6, 0, 0), Qt::AlignHCenter | Qt::AlignTop,
               QObject::tr("Multi-head attention, step by step"));
    QFont body = p.font();
    body.setPointSizeF(14);
    body.setBold(false);
    p.setFont(body);
    p.drawText(page.adjusted(page.width() / 10, page.height() / 3, -page.width() / 10, 0),
               Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, settingsLines().join('\n'));
    int pages = 1;
    for (int i = 0; i < view.stepCount(); ++i) {
        failIf(!writer.newPage(), path, "a new page could not be started");
        view.setStep(i, false);
        settle(&view);
        drawFitted(p, view.grab(), page);
        ++pages;
    }
    p.end();
    failIf(QFileInfo(path).size() == 0, path, "the file is empty");
    return pages;
}

void HandoutWriter::writeStep(QWidget *view, const QString &path)
{
    settle(view);
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QPixmap picture = view->grab();
    if (suffix == "png" || suffix == "jpg") {
        failIf(!picture.save(path), path, "the image could not be saved");
        return;
    }
    QPainter p;
    QSvgGenerator svg;
    QPdfWriter pdf(suffix == "pdf" ? path : QString());
    if (suffix == "svg") {
        svg.setFileName(path);
        svg.setSize(view->size());
        svg.setViewBox(QRect(QPoint(0, 0), view->size()));
        failIf(!p.begin(&svg), path, "the SVG file could not be opened");
    } else {
        failIf(suffix != "pdf", path, "use a .png, .svg or .pdf file name");
        pdf.setResolution(96);
        pdf.setPageSize(QPageSize(QSizeF(view->size()) * 72.0 / 96.0, QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        failIf(!p.begin(&pdf), path, "the PDF file could not be opened");
    }
    // Text and panels drawn by the widgets themselves (vector where they paint vectors).
    view->render(&p);
    p.end();
    failIf(QFileInfo(path).size() == 0, path, "the file is empty");
}

} // namespace headlens
