// tst_figureexporter: figures of the paper size and DPI asked, with their words, alike in formats.
#include "pdfpages.h"
#include "wordstrace.h"

#include "export/figureexporter.h"
#include "plot/colorrange.h"
#include "plot/heatmapplot.h"
#include "print/printcanvas.h"
#include "testmain.h"
#include "util/inputerror.h"
#include "views/headimagemaker.h"
#include "views/headsgridview.h"
#include "views/tracereader.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>
#include <cstdlib>
#include <numeric>

using namespace headlens;
using headlens::test::PdfPages;

using headlens::test::traceOf;

namespace {

/// The share of pixels whose colour differs by more than 16 in some channel (1 when the
/// pictures differ in size). Rendering the same view twice gives 0; a heatmap missing from one
/// panel differs in a tenth of the picture or more.
double differingShare(QImage a, QImage b)
{
    if (a.size() != b.size())
        return 1.0;
    a = a.convertToFormat(QImage::Format_RGB32);
    b = b.convertToFormat(QImage::Format_RGB32);
    qint64 differing = 0;
    for (int y = 0; y < a.height(); ++y) {
        const auto *ra = reinterpret_cast<const QRgb *>(a.constScanLine(y));
        const auto *rb = reinterpret_cast<const QRgb *>(b.constScanLine(y));
        for (int x = 0; x < a.width(); ++x) {
            const int d = std::max({std::abs(qRed(ra[x]) - qRed(rb[x])),
                                    std::abs(qGreen(ra[x]) - qGreen(rb[x])),
                                    std::abs(qBlue(ra[x]) - qBlue(rb[x]))});
            differing += d > 16;
        }
    }
    return double(differing) / (double(a.width()) * a.height());
}

void replotAll(QWidget *widget)
{
    for (QCustomPlot *plot : widget->findChildren<QCustomPlot *>())
        plot->replot(QCustomPlot::rpImmediateRefresh);
}

constexpr double kCm = 1.0 / 2.54;

using Content = FigureRequest::Content;

FigureRequest requestOf(Content content, int index, QSizeF inches, int dpi = 300)
{
    FigureRequest r;
    r.content = content;
    r.index = index;
    r.inches = inches;
    r.dpi = dpi;
    return r;
}

/// The tiny GPT-2 checkpoint (2 layers x 2 heads) run over a short text.
std::shared_ptr<const ModelRun> tinyModelRun()
{
    WorkspaceState state;
    state.text = "the robot dropped the gear";
    state.modelPath = QString(HEADLENS_TEST_DATA) + "/gpt2/tiny";
    return Session().run(*JobBuilder::jobFor(state)).model;
}

/// The heads named in `texts` as the titles write them ("head 3 · H ..."), counted from 1.
QList<int> headsNamed(const QStringList &texts)
{
    static const QRegularExpression title(R"(^head (\d+)(\D|$))");
    QList<int> heads;
    for (const QString &text : texts) {
        const QRegularExpressionMatch m = title.match(text.trimmed());
        if (m.hasMatch() && !heads.contains(m.captured(1).toInt()))
            heads << m.captured(1).toInt();
    }
    std::sort(heads.begin(), heads.end());
    return heads;
}

QList<int> oneTo(int count)
{
    QList<int> heads;
    for (int i = 1; i <= count; ++i)
        heads << i;
    return heads;
}

struct SvgFigure
{
    QString width, height, viewBox;
    QStringList texts;
    QString error;
};

SvgFigure readSvg(const QString &path)
{
    SvgFigure svg;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {{}, {}, {}, {}, "cannot open " + path};
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == u"svg") {
            svg.width = xml.attributes().value("width").toString();
            svg.height = xml.attributes().value("height").toString();
            svg.viewBox = xml.attributes().value("viewBox").toString().simplified();
        } else if (xml.name() == u"text") {
            svg.texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
        }
    }
    if (xml.hasError())
        svg.error = xml.errorString();
    return svg;
}

struct SvgRect
{
    QRectF rect; ///< in the drawing's coordinates (its viewBox)
    QColor color;
};

/// The <rect>s QSvgGenerator wrote, each in its group's fill colour and translation (each group
/// carries the whole transform: `matrix(1,0,0,1,dx,dy)` for the translations print layouts use).
QList<SvgRect> filledRects(const QString &path)
{
    QList<SvgRect> rects;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return rects;
    QXmlStreamReader xml(&file);
    QColor fill;
    QPointF offset;
    static const QRegularExpression matrix(R"(matrix\(([^)]*)\))");
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const QXmlStreamAttributes a = xml.attributes();
        if (xml.name() == u"g") {
            const QString opacity = a.value("fill-opacity").toString();
            const QString group = a.value("opacity").toString();
            fill = (opacity.isEmpty() || opacity == "1") && (group.isEmpty() || group == "1")
                       ? QColor(a.value("fill").toString())
                       : QColor();
            const QStringList m =
                matrix.match(a.value("transform").toString()).captured(1).split(',');
            offset = m.size() == 6 && m[0] == "1" && m[3] == "1" && m[1] == "0" && m[2] == "0"
                         ? QPointF(m[4].toDouble(), m[5].toDouble())
                         : QPointF(qQNaN(), qQNaN());
        } else if (xml.name() == u"rect" && fill.isValid() && !std::isnan(offset.x())) {
            rects.push_back({QRectF(a.value("x").toDouble(), a.value("y").toDouble(),
                                    a.value("width").toDouble(), a.value("height").toDouble())
                                 .translated(offset),
                             fill});
        }
    }
    return rects;
}

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestFigureExporter : public QObject
{
    Q_OBJECT

private slots:
    void writesEveryHeadInEveryFormat_data();
    void writesEveryHeadInEveryFormat();
    void pngHasTheSizeAndResolutionAsked_data();
    void pngHasTheSizeAndResolutionAsked();
    void vectorFiguresHaveThePaperSizeAsked_data();
    void vectorFiguresHaveThePaperSizeAsked();
    void everyFormatCarriesTheTitlesAxesAndColourBar_data();
    void everyFormatCarriesTheTitlesAxesAndColourBar();
    void svgLooksLikeThePng_data();
    void svgLooksLikeThePng();
    void modelFigureHeadsLayersAndHeads();
    void impossibleFiguresAreRefused_data();
    void impossibleFiguresAreRefused();
    void exportedViewKeepsItsSize_data();
    void exportedViewKeepsItsSize();
};

void TestFigureExporter::writesEveryHeadInEveryFormat_data()
{
    QTest::addColumn<QString>("format");
    QTest::newRow("png") << "png";
    QTest::newRow("pdf") << "pdf";
    QTest::newRow("svg") << "svg";
}

void TestFigureExporter::writesEveryHeadInEveryFormat()
{
    QFETCH(QString, format);
    QTemporaryDir dir;
    const QStringList files = FigureExporter(traceOf(4, 10)).writeAll(dir.path(), format);
    const QStringList expected{"heads", "head_1", "head_2", "head_3", "head_4"};
    QCOMPARE(files.size(), expected.size());
    for (int i = 0; i < files.size(); ++i) {
        QCOMPARE(QFileInfo(files[i]).fileName(), expected[i] + "." + format);
        QVERIFY2(QFileInfo(files[i]).size() > 1000, qPrintable(files[i]));
    }
}

void TestFigureExporter::pngHasTheSizeAndResolutionAsked_data()
{
    QTest::addColumn<int>("content");
    QTest::addColumn<QSizeF>("inches");
    QTest::addColumn<int>("dpi");
    QTest::newRow("heads, 8.5 x 6 cm at 300 dpi")
        << int(Content::Heads) << QSizeF(8.5 * kCm, 6 * kCm) << 300;
    QTest::newRow("head, 3.3 x 2.4 in at 150 dpi") << int(Content::Head) << QSizeF(3.3, 2.4) << 150;
    QTest::newRow("step, 27.7 x 19 cm at 96 dpi")
        << int(Content::Step) << QSizeF(27.7 * kCm, 19 * kCm) << 96;
    QTest::newRow("heads, 2 x 5 in at 600 dpi") << int(Content::Heads) << QSizeF(2, 5) << 600;
}

// Pixels = inches x dpi, and the file says its DPI (pHYs), so a word processor places the
// figure at the size it was made for.
void TestFigureExporter::pngHasTheSizeAndResolutionAsked()
{
    QFETCH(int, content);
    QFETCH(QSizeF, inches);
    QFETCH(int, dpi);
    QTemporaryDir dir;
    const QString path = dir.filePath("figure.png");
    FigureExporter(traceOf(8, 10)).write(path, requestOf(Content(content), 1, inches, dpi));
    const QImage png(path);
    QCOMPARE(png.size(), QSize(qRound(inches.width() * dpi), qRound(inches.height() * dpi)));
    QVERIFY(fileBytes(path).contains("pHYs"));
    QCOMPARE(qRound(png.dotsPerMeterX() * 0.0254), dpi);
    QCOMPARE(qRound(png.dotsPerMeterY() * 0.0254), dpi);
}

void TestFigureExporter::vectorFiguresHaveThePaperSizeAsked_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<int>("content");
    QTest::addColumn<QSizeF>("inches");
    for (const char *format : {"pdf", "svg"}) {
        QTest::addRow("%s heads, 8.5 x 6 cm", format)
            << format << int(Content::Heads) << QSizeF(8.5 * kCm, 6 * kCm);
        QTest::addRow("%s head, 3.3 x 2.4 in", format)
            << format << int(Content::Head) << QSizeF(3.3, 2.4);
        QTest::addRow("%s step, 16 x 20 cm", format)
            << format << int(Content::Step) << QSizeF(16 * kCm, 20 * kCm);
    }
}

// A PDF page is the size in points (72 a inch); an SVG says its width and height in mm.
void TestFigureExporter::vectorFiguresHaveThePaperSizeAsked()
{
    QFETCH(QString, format);
    QFETCH(int, content);
    QFETCH(QSizeF, inches);
    QTemporaryDir dir;
    const QString path = dir.filePath("figure." + format);
    FigureExporter(traceOf(4, 10)).write(path, requestOf(Content(content), 0, inches));
    if (format == "pdf") {
        const QList<QSizeF> pages = PdfPages(fileBytes(path)).pageSizes();
        QCOMPARE(pages.size(), 1);
        QVERIFY2(std::abs(pages[0].width() - inches.width() * 72) < 0.6 &&
                     std::abs(pages[0].height() - inches.height() * 72) < 0.6,
                 qPrintable(QString("%1 x %2 pt").arg(pages[0].width()).arg(pages[0].height())));
        return;
    }
    const SvgFigure svg = readSvg(path);
    QVERIFY2(svg.error.isEmpty(), qPrintable(svg.error));
    QVERIFY2(svg.width.endsWith("mm") && svg.height.endsWith("mm"), qPrintable(svg.width));
    // Whole layout pixels: within one pixel (0.27 mm at 96 dpi) of the size asked.
    QVERIFY2(std::abs(svg.width.chopped(2).toDouble() - inches.width() * 25.4) < 0.3,
             qPrintable(svg.width));
    QVERIFY2(std::abs(svg.height.chopped(2).toDouble() - inches.height() * 25.4) < 0.3,
             qPrintable(svg.height));
}

void TestFigureExporter::everyFormatCarriesTheTitlesAxesAndColourBar_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("head");   // -1: the grid
    QTest::addColumn<bool>("stats"); // the titles have room for the heads' statistics
    for (const char *format : {"pdf", "svg"}) {
        QTest::addRow("%s grid of 8", format) << format << 8 << -1 << true;
        QTest::addRow("%s grid of 12", format) << format << 12 << -1 << false;
        QTest::addRow("%s head 3", format) << format << 4 << 2 << true;
    }
}

// As text in the file: every head's title (as the window titles it, or "head 3" alone where the
// statistics would be cut), the axis titles, the colour bar's words and the ends of its range.
void TestFigureExporter::everyFormatCarriesTheTitlesAxesAndColourBar()
{
    QFETCH(QString, format);
    QFETCH(int, heads);
    QFETCH(int, head);
    QFETCH(bool, stats);
    const auto trace = traceOf(heads, 10);
    QTemporaryDir dir;
    const QString path = dir.filePath("figure." + format);
    FigureExporter(trace).write(path, requestOf(head < 0 ? Content::Heads : Content::Head,
                                                std::max(head, 0), QSizeF(16 * kCm, 10 * kCm)));
    const QStringList texts =
        format == "pdf" ? PdfPages(fileBytes(path)).texts() : readSvg(path).texts;
    const QString all = texts.join(" | ");
    QCOMPARE(headsNamed(texts), head < 0 ? oneTo(heads) : QList<int>{head + 1});
    const QString title = TraceReader::headTitle(*trace, 0, std::max(head, 0));
    const QString numbers = title.section(QString::fromUtf8(" · "), 1); // "H 2.12 · dist 3.5"
    QCOMPARE(all.contains(numbers), stats);
    QVERIFY2(!all.contains(QChar(0x2026)), qPrintable(all)); // nothing cut short with "…"
    QVERIFY2(texts.contains("query token") && texts.contains("key token"), qPrintable(all));
    QVERIFY2(all.contains("weight,") && all.contains("up to the largest shown"), qPrintable(all));
    std::vector<int> shown(size_t(head < 0 ? heads : 1));
    std::iota(shown.begin(), shown.end(), std::max(head, 0));
    const double top = ColorRange::of(ColorScaleMode::Shown,
                                      HeadImages::make(trace, 0, shown, 128).largestWeight(), {})
                           .upper;
    QVERIFY2(texts.contains("0") && texts.contains(QString::number(top, 'g', 3)),
             qPrintable(QString::number(top, 'g', 3) + " | " + all));
}

void TestFigureExporter::svgLooksLikeThePng_data()
{
    QTest::addColumn<int>("content");
    QTest::newRow("heads") << int(Content::Heads);
    QTest::newRow("head") << int(Content::Head);
    QTest::newRow("step") << int(Content::Step);
}

// Every filled rectangle of the SVG (the cells, the bars, the page) is in the PNG at the same
// place and in the same colour: both are painted by the same code at the same layout, the PNG
// scaled to its DPI. (Text is left out: Qt's own SVG renderer reads font sizes as points.)
void TestFigureExporter::svgLooksLikeThePng()
{
    QFETCH(int, content);
    const FigureExporter exporter(traceOf(4, 10));
    const FigureRequest request =
        requestOf(Content(content), content == int(Content::Step) ? 5 : 1,
                  QSizeF(5, content == int(Content::Step) ? 6 : 3.5), 150);
    QTemporaryDir dir;
    exporter.write(dir.filePath("figure.png"), request);
    exporter.write(dir.filePath("figure.svg"), request);
    const QImage png = QImage(dir.filePath("figure.png")).convertToFormat(QImage::Format_RGB32);
    const QList<SvgRect> rects = filledRects(dir.filePath("figure.svg"));
    QVERIFY2(rects.size() >= 100, qPrintable(QString::number(rects.size())));
    const double scale = 150.0 / PrintCanvas::layoutDpi();
    int compared = 0, differing = 0;
    QString first;
    for (int i = 0; i < rects.size(); ++i) {
        const SvgRect &r = rects[i];
        if (r.rect.width() * scale < 3 || r.rect.height() * scale < 3)
            continue; // a pixel or two: anti-aliased edges only
        const QPoint at = (r.rect.center() * scale).toPoint();
        // Seen only where nothing is drawn over it (a plot's background under its cells).
        const bool covered = std::any_of(rects.begin() + i + 1, rects.end(), [&](const SvgRect &o) {
            return o.rect.contains(r.rect.center());
        });
        if (covered || !png.rect().contains(at))
            continue;
        ++compared;
        const QRgb p = png.pixel(at);
        const int d =
            std::max({std::abs(qRed(p) - r.color.red()), std::abs(qGreen(p) - r.color.green()),
                      std::abs(qBlue(p) - r.color.blue())});
        if (d > 16 && differing++ == 0)
            first = QString("at (%1, %2): PNG %3, SVG %4")
                        .arg(at.x())
                        .arg(at.y())
                        .arg(QColor(p).name(), r.color.name());
    }
    QVERIFY2(compared >= 100, qPrintable(QString::number(compared))); // a head's cells at least
    QVERIFY2(differing <= compared / 100, qPrintable(QString("%1 of %2 rectangles differ, first %3")
                                                         .arg(differing)
                                                         .arg(compared)
                                                         .arg(first)));
}

// Rows headed "layer l", columns "head h", as the Model tab; which way the tokens go; the colour
// bar's words.
void TestFigureExporter::modelFigureHeadsLayersAndHeads()
{
    const std::shared_ptr<const ModelRun> run = tinyModelRun();
    QVERIFY(run);
    QCOMPARE(run->layers, 2);
    FigureExporter exporter(run->layerTrace);
    exporter.setModel(run);
    QTemporaryDir dir;
    exporter.write(dir.filePath("model.pdf"), requestOf(Content::Model, 0, QSizeF(4, 3)));
    const QStringList texts = PdfPages(fileBytes(dir.filePath("model.pdf"))).texts();
    for (const char *header : {"layer 0", "layer 1", "head 1", "head 2"})
        QVERIFY2(texts.contains(header), qPrintable(texts.join(" | ")));
    QVERIFY(texts.join(' ').contains("up to the largest shown"));
    QVERIFY2(texts.join(' ').contains("query token") && texts.join(' ').contains("key token"),
             qPrintable(texts.join(" | ")));
}

void TestFigureExporter::impossibleFiguresAreRefused_data()
{
    QTest::addColumn<int>("content");
    QTest::addColumn<int>("index");
    QTest::addColumn<QSizeF>("inches");
    QTest::addColumn<int>("dpi");
    QTest::addColumn<QString>("says");
    QTest::newRow("head 5 of 4") << int(Content::Head) << 4 << QSizeF(3, 3) << 300
                                 << "there is no head 5: the layer has heads 1 to 4";
    QTest::newRow("step 15 of 14") << int(Content::Step) << 14 << QSizeF(3, 3) << 300
                                   << "there is no step 15: the pipeline has steps 1 to 14";
    QTest::newRow("model without one")
        << int(Content::Model) << 0 << QSizeF(3, 3) << 300 << "a model figure needs a model";
    QTest::newRow("no width") << int(Content::Heads) << 0 << QSizeF(0, 3) << 300
                              << "width and height must be more than 0";
    QTest::newRow("10 dpi") << int(Content::Heads) << 0 << QSizeF(3, 3) << 10
                            << "from 30 to 2400 dpi, not 10";
}

void TestFigureExporter::impossibleFiguresAreRefused()
{
    QFETCH(int, content);
    QFETCH(int, index);
    QFETCH(QSizeF, inches);
    QFETCH(int, dpi);
    QFETCH(QString, says);
    const FigureExporter exporter(traceOf(4, 10));
    const FigureRequest request = requestOf(Content(content), index, inches, dpi);
    QVERIFY2(exporter.problemWith(request).contains(says),
             qPrintable(exporter.problemWith(request)));
    QTemporaryDir dir;
    const QString path = dir.filePath("figure.png");
    try {
        exporter.write(path, request);
        QFAIL("no InputError");
    } catch (const InputError &error) {
        QVERIFY2(QString(error.what()).contains(says), error.what());
    }
    QVERIFY(!QFile::exists(path));
}

void TestFigureExporter::exportedViewKeepsItsSize_data()
{
    QTest::addColumn<QString>("format");
    QTest::newRow("png") << "png";
    QTest::newRow("pdf") << "pdf";
    QTest::newRow("svg") << "svg";
}

// File > Export writes the view area as it is on screen (FigureExporter::writeWidget): the file
// has the widget's size.
void TestFigureExporter::exportedViewKeepsItsSize()
{
    QFETCH(QString, format);
    const QSize size(730, 470);
    HeadsGridView view;
    view.setTrace(traceOf(4, 10), 0);
    view.resize(size);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTemporaryDir dir;
    const QString path = dir.filePath("view." + format);
    FigureExporter::writeWidget(&view, path, Qt::white);
    if (format == "png") {
        const QImage exported(path);
        QCOMPARE(exported.size(), size);
        replotAll(&view);
        QCOMPARE(differingShare(exported, view.grab().toImage()), 0.0);
    } else if (format == "pdf") {
        const PdfPages pdf(fileBytes(path));
        QCOMPARE(pdf.pageSizes(), QList<QSizeF>{QSizeF(size)});
        QCOMPARE(headsNamed(pdf.texts()), oneTo(4));
    } else {
        const SvgFigure svg = readSvg(path);
        QCOMPARE(svg.viewBox, QString("0 0 %1 %2").arg(size.width()).arg(size.height()));
        QCOMPARE(qRound(svg.width.chopped(2).toDouble() * 72 / 25.4), size.width());
        QCOMPARE(headsNamed(svg.texts), oneTo(4));
    }
}

HEADLENS_TEST_MAIN(TestFigureExporter)
#include "tst_figureexporter.moc"
