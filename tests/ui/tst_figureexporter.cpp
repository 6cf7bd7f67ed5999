// tst_figureexporter: an exported figure is the picture the window shows, at the size asked for.
#include "pdfpages.h"

#include "export/figureexporter.h"
#include "plot/heatmapplot.h"
#include "runner/jobbuilder.h"
#include "selection/selection.h"
#include "session/session.h"
#include "views/headimagemaker.h"
#include "views/headsgridview.h"
#include "views/singleheadview.h"
#include "views/tracereader.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>
#include <cstdlib>

using namespace headlens;
using headlens::test::PdfPages;

namespace {

/// A trace of `words` tokens and `heads` heads (d_model 48 splits over 1, 4, 8 and 12 heads).
std::shared_ptr<const Trace> traceOf(int heads, int words)
{
    static const char *const kWords[] = {"the",  "tired",   "robot", "dropped", "heavy",
                                         "gear", "because", "it",    "broke",   "again"};
    WorkspaceState state;
    state.config.heads = heads;
    state.config.dModel = 48;
    QStringList text;
    for (int i = 0; i < words; ++i)
        text << kWords[i % 10];
    state.text = text.join(' ');
    return Session().run(*JobBuilder::jobFor(state)).trace;
}

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

QByteArray readAll(const QString &path)
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
    void gridPngIsTheOnScreenGrid_data();
    void gridPngIsTheOnScreenGrid();
    void headPngIsTheOnScreenHead_data();
    void headPngIsTheOnScreenHead();
    void vectorFiguresHaveTheSizeAndTitles_data();
    void vectorFiguresHaveTheSizeAndTitles();
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

void TestFigureExporter::gridPngIsTheOnScreenGrid_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("words");
    QTest::addColumn<QSize>("size");
    QTest::newRow("1 head") << 1 << 10 << QSize(640, 480);
    QTest::newRow("4 heads") << 4 << 10 << QSize(760, 520);
    QTest::newRow("12 heads, tall") << 12 << 10 << QSize(700, 900);
    // 300 x 300 x 8 weights, more than HeadImageMaker::kInlineCells: pooled in the background.
    QTest::newRow("pooled in the background") << 8 << 300 << QSize(800, 600);
}

// The exported PNG has the size asked for, and its pixels are those of a HeadsGridView laid out
// at that size on the screen once its thumbnails are drawn.
void TestFigureExporter::gridPngIsTheOnScreenGrid()
{
    QFETCH(int, heads);
    QFETCH(int, words);
    QFETCH(QSize, size);
    const auto trace = traceOf(heads, words);
    QCOMPARE(trace->queryLength(), int64_t(words));
    if (words == 300)
        QVERIFY(int64_t(heads) * words * words > HeadImageMaker::kInlineCells);
    QTemporaryDir dir;
    const QString path = dir.filePath("heads.png");
    FigureExporter(trace).writeGrid(path, size);
    const QImage exported(path);
    QCOMPARE(exported.size(), size);

    HeadsGridView view;
    view.setPlotStyle(PlotStyle{});
    view.setTrace(trace, 0);
    view.resize(size);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(QTest::qWaitFor([&] { return view.drawnTrace() == trace; }, 20000));
    QCOMPARE(view.size(), size);
    replotAll(&view);
    const QImage onScreen = view.grab().toImage();
    const double share = differingShare(exported, onScreen);
    QVERIFY2(share < 0.002, qPrintable(QString("%1% of the pixels differ").arg(share * 100)));
}

void TestFigureExporter::headPngIsTheOnScreenHead_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("words");
    QTest::addColumn<int>("head");
    QTest::addColumn<QSize>("size");
    QTest::newRow("head 1 of 4") << 4 << 10 << 0 << QSize(600, 500);
    QTest::newRow("head 3 of 4") << 4 << 10 << 2 << QSize(500, 560);
    // 300 x 300 weights of one head: pooled in the background too.
    QTest::newRow("long text") << 2 << 300 << 1 << QSize(700, 600);
}

// writeHead's PNG is the head's plot at the size asked for, as the single-head view shows it.
void TestFigureExporter::headPngIsTheOnScreenHead()
{
    QFETCH(int, heads);
    QFETCH(int, words);
    QFETCH(int, head);
    QFETCH(QSize, size);
    const auto trace = traceOf(heads, words);
    QTemporaryDir dir;
    const QString path = dir.filePath("head.png");
    FigureExporter(trace).writeHead(path, head, size);
    const QImage exported(path);
    QCOMPARE(exported.size(), size);

    Selection selection;
    SingleHeadView view;
    view.setSelection(&selection);
    view.setPlotStyle(PlotStyle{});
    view.setTrace(trace, 0);
    selection.setPinnedHead(head);
    view.resize(size);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    // Make the plot itself `size`: the view adds its Close bar above it.
    view.resize(size + (view.size() - view.plot()->size()));
    QVERIFY(QTest::qWaitFor([&] { return view.plot()->size() == size; }, 20000));
    QVERIFY(QTest::qWaitFor([&] { return view.drawnTrace() == trace; }, 20000));
    QCOMPARE(view.plot()->title(), TraceReader::headTitle(*trace, 0, head));
    replotAll(&view);
    const QImage onScreen = view.plot()->grab().toImage();
    const double share = differingShare(exported, onScreen);
    QVERIFY2(share < 0.002, qPrintable(QString("%1% of the pixels differ").arg(share * 100)));
}

void TestFigureExporter::vectorFiguresHaveTheSizeAndTitles_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("head"); // -1: the grid
    QTest::addColumn<QSize>("size");
    QTest::newRow("pdf grid") << "pdf" << 4 << -1 << QSize(1200, 800);
    QTest::newRow("pdf grid of 12") << "pdf" << 12 << -1 << QSize(1400, 900);
    QTest::newRow("pdf head") << "pdf" << 4 << 2 << QSize(700, 650);
    QTest::newRow("svg grid") << "svg" << 4 << -1 << QSize(1200, 800);
    QTest::newRow("svg grid of 12") << "svg" << 12 << -1 << QSize(1400, 900);
    QTest::newRow("svg head") << "svg" << 4 << 2 << QSize(700, 650);
}

// A PDF page (in points, one per pixel) or an SVG drawing has the size asked for and carries
// the titles of the heads it shows, as text.
void TestFigureExporter::vectorFiguresHaveTheSizeAndTitles()
{
    QFETCH(QString, format);
    QFETCH(int, heads);
    QFETCH(int, head);
    QFETCH(QSize, size);
    const auto trace = traceOf(heads, 10);
    QTemporaryDir dir;
    const QString path = dir.filePath("figure." + format);
    if (head < 0)
        FigureExporter(trace).writeGrid(path, size);
    else
        FigureExporter(trace).writeHead(path, head, size);
    const QList<int> titled = head < 0 ? oneTo(heads) : QList<int>{head + 1};

    if (format == "pdf") {
        const PdfPages pdf(readAll(path));
        QCOMPARE(pdf.pageSizes(), QList<QSizeF>{QSizeF(size)});
        const QStringList texts = pdf.texts();
        QVERIFY2(headsNamed(texts) == titled, qPrintable(texts.join(" | ")));
    } else {
        const SvgFigure svg = readSvg(path);
        QVERIFY2(svg.error.isEmpty(), qPrintable(svg.error));
        QCOMPARE(svg.viewBox, QString("0 0 %1 %2").arg(size.width()).arg(size.height()));
        // Sizes in millimetres at QSvgGenerator's 72 dpi: one pixel is 25.4 / 72 mm.
        QVERIFY2(svg.width.endsWith("mm") && svg.height.endsWith("mm"), qPrintable(svg.width));
        QCOMPARE(qRound(svg.width.chopped(2).toDouble() * 72 / 25.4), size.width());
        QCOMPARE(qRound(svg.height.chopped(2).toDouble() * 72 / 25.4), size.height());
        QCOMPARE(headsNamed(svg.texts), titled);
    }
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
        const PdfPages pdf(readAll(path));
        QCOMPARE(pdf.pageSizes(), QList<QSizeF>{QSizeF(size)});
        QCOMPARE(headsNamed(pdf.texts()), oneTo(4));
    } else {
        const SvgFigure svg = readSvg(path);
        QCOMPARE(svg.viewBox, QString("0 0 %1 %2").arg(size.width()).arg(size.height()));
        QCOMPARE(qRound(svg.width.chopped(2).toDouble() * 72 / 25.4), size.width());
        QCOMPARE(headsNamed(svg.texts), oneTo(4));
    }
}

QTEST_MAIN(TestFigureExporter)
#include "tst_figureexporter.moc"
