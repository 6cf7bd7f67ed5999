// PrintCanvas: QPdfWriter, QSvgGenerator or a QImage, each at the layout's resolution.
#include "print/printcanvas.h"

#include "util/inputerror.h"

#include <QFileInfo>
#include <QGuiApplication>
#include <QPdfWriter>
#include <QSaveFile>
#include <QScreen>
#include <QSvgGenerator>

#include <cmath>

namespace headlens {

namespace {

constexpr double kInchesPerMeter = 1.0 / 0.0254;

} // namespace

PrintCanvas::PrintCanvas(const QString &path, const QPageLayout &page, int dpi)
    : m_path(path), m_suffix(QFileInfo(path).suffix().toLower())
{
    const QSizeF inches = page.fullRect(QPageLayout::Inch).size();
    const int layout = layoutDpi();
    m_rect =
        QRectF(0, 0, std::round(inches.width() * layout), std::round(inches.height() * layout));
    if (m_suffix != "pdf" && m_suffix != "svg" && m_suffix != "png")
        fail("use a .png, .svg or .pdf file name");
    m_file = std::make_unique<QSaveFile>(path);
    if (!m_file->open(QIODevice::WriteOnly))
        fail(qPrintable(m_file->errorString()));
    if (m_suffix == "pdf")
        beginPdf(page);
    else if (m_suffix == "svg")
        beginSvg();
    else
        beginPng(inches, dpi);
    m_painter.setMode(QCPPainter::pmVectorized);
    m_painter.setMode(QCPPainter::pmNoCaching);
    m_painter.setRenderHint(QPainter::Antialiasing);
    m_painter.setRenderHint(QPainter::TextAntialiasing);
    m_painter.fillRect(m_rect, Qt::white);
}

PrintCanvas::~PrintCanvas()
{
    if (m_painter.isActive())
        m_painter.end();
}

QPageLayout PrintCanvas::pageOfSize(const QSizeF &inches)
{
    return QPageLayout(QPageSize(inches, QPageSize::Inch, QString(), QPageSize::ExactMatch),
                       QPageLayout::Portrait, QMarginsF(0, 0, 0, 0));
}

int PrintCanvas::layoutDpi()
{
    const QScreen *screen = QGuiApplication::primaryScreen();
    return screen ? int(std::lround(screen->logicalDotsPerInchY())) : 96;
}

void PrintCanvas::beginPdf(const QPageLayout &page)
{
    m_pdf = std::make_unique<QPdfWriter>(m_file.get());
    m_pdf->setCreator("HeadLens");
    m_pdf->setTitle(QFileInfo(m_path).completeBaseName());
    m_pdf->setResolution(layoutDpi());
    QPageLayout flat = page;
    flat.setMode(QPageLayout::FullPageMode);
    flat.setMargins(QMarginsF(0, 0, 0, 0));
    if (!m_pdf->setPageLayout(flat))
        fail("the page size cannot be used");
    if (!m_painter.begin(m_pdf.get()))
        fail("the PDF file could not be opened");
}

void PrintCanvas::beginSvg()
{
    m_svg = std::make_unique<QSvgGenerator>();
    m_svg->setOutputDevice(m_file.get());
    m_svg->setResolution(layoutDpi());
    m_svg->setSize(m_rect.size().toSize());
    m_svg->setViewBox(m_rect);
    m_svg->setTitle("HeadLens");
    if (!m_painter.begin(m_svg.get()))
        fail("the SVG file could not be opened");
}

// Painted at the layout's DPI and scaled: QFont turns points into pixels with the image's DPI,
// which must be the layout's while painting; the file then says the DPI asked for.
void PrintCanvas::beginPng(const QSizeF &inches, int dpi)
{
    m_dpi = dpi;
    const QSize pixels(int(std::lround(inches.width() * dpi)),
                       int(std::lround(inches.height() * dpi)));
    m_png = QImage(pixels, QImage::Format_RGB32);
    if (m_png.isNull())
        fail("the image is too large for memory");
    const int layoutDpm = int(std::lround(layoutDpi() * kInchesPerMeter));
    m_png.setDotsPerMeterX(layoutDpm);
    m_png.setDotsPerMeterY(layoutDpm);
    m_png.fill(Qt::white);
    if (!m_painter.begin(&m_png))
        fail("the image could not be painted");
    m_painter.scale(double(pixels.width()) / m_rect.width(),
                    double(pixels.height()) / m_rect.height());
}

void PrintCanvas::newPage()
{
    if (!m_pdf || !m_pdf->newPage())
        fail("a new page could not be started");
    m_painter.fillRect(m_rect, Qt::white);
}

void PrintCanvas::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    m_painter.end();
    if (m_suffix == "png") {
        const int dpm = int(std::lround(m_dpi * kInchesPerMeter));
        m_png.setDotsPerMeterX(dpm);
        m_png.setDotsPerMeterY(dpm);
        if (!m_png.save(m_file.get(), "PNG"))
            fail("the image could not be saved");
    }
    m_pdf.reset(); // QPdfWriter writes the file's trailer when it is destroyed
    m_svg.reset();
    if (m_file->size() == 0)
        fail("the file is empty");
    if (!m_file->commit())
        fail(qPrintable(m_file->errorString()));
}

void PrintCanvas::fail(const char *why) const
{
    throw InputError("Cannot write " + m_path.toStdString() + ": " + why);
}

} // namespace headlens
