// PrintCanvas: a PNG, SVG or PDF of a physical size that print layouts paint into.
#pragma once

#include <qcustomplot.h>

#include <QImage>
#include <QPageLayout>
#include <QString>

#include <memory>

class QPdfWriter;
class QSaveFile;
class QSvgGenerator;

namespace headlens {

/// The painter's unit is the layout pixel: 1 / layoutDpi() inch, the unit QFontMetrics and
/// QCustomPlot lay text out in. Every format gets that resolution while it is painted (the PDF
/// and the SVG as their resolution, the PNG as its DPI, scaled up to the asked-for DPI), so text
/// measured for the layout is drawn exactly as large in every file: a figure looks the same as
/// PNG, SVG and PDF. The painter is in QCPPainter::pmVectorized mode (heatmap cells drawn as
/// rectangles, see CellColorMap). PDF text is text (fonts embedded, selectable). The file is
/// written through QSaveFile: until finish() succeeds, whatever was at the path stays there.
class PrintCanvas
{
public:
    /// The format follows the suffix of `path` (.png, .svg, .pdf); `dpi` sets the pixels of a
    /// PNG (page inches x dpi) and its pHYs header. Throws InputError for another suffix or a
    /// file that cannot be opened.
    PrintCanvas(const QString &path, const QPageLayout &page, int dpi = 300);
    ~PrintCanvas();
    PrintCanvas(const PrintCanvas &) = delete;
    PrintCanvas &operator=(const PrintCanvas &) = delete;

    /// A page exactly `inches` large, no margins, portrait.
    static QPageLayout pageOfSize(const QSizeF &inches);
    /// The layout pixels per inch: the screen's logical DPI, which QFont turns points into.
    static int layoutDpi();

    QCPPainter &painter() { return m_painter; }
    /// The whole page in layout pixels.
    QRectF rect() const { return m_rect; }
    /// Starts the next page (PDF only). Throws InputError.
    void newPage();
    /// Ends painting and writes the file. Throws InputError.
    void finish();

private:
    void beginPdf(const QPageLayout &page);
    void beginSvg();
    void beginPng(const QSizeF &inches, int dpi);
    void fail(const char *why) const;

    QString m_path;
    QString m_suffix;
    std::unique_ptr<QSaveFile> m_file; ///< declared before the writers: they close first
    QRectF m_rect;
    QCPPainter m_painter;
    std::unique_ptr<QPdfWriter> m_pdf;
    std::unique_ptr<QSvgGenerator> m_svg;
    QImage m_png;
    int m_dpi = 0;
    bool m_finished = false;
};

} // namespace headlens
