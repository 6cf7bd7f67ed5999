// tst_handoutwriter: the handout PDF read back page by page: its pages, their text, their paper.
#include "pdfpages.h"
#include "pipelinecases.h"

#include "print/handoutwriter.h"
#include "print/laidoutpage.h"
#include "print/printcanvas.h"
#include "sanitizerbuild.h"
#include "testmain.h"
#include "views/tracereader.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace headlens;
using headlens::test::PdfPages;

class TestHandoutWriter : public QObject
{
    Q_OBJECT

private slots:
    void onePagePerStep_data();
    void onePagePerStep();
    void progressHearsOfEveryPage();
    void stoppingLeavesTheFileAsItWas();
    void noPageShowsAWidget_data();
    void noPageShowsAWidget();
    void eachStepPageNamesItsStepAndFormula();
    void everyPageHasItsNumberAndTheSettings();
    void pagesHaveThePaperAsked_data();
    void pagesHaveThePaperAsked();
    void drawnAsVectorsWithEmbeddedFonts();
    void oneCellPagesWorkOutTheStrongestWeight();
    void oneCellPagesWorkOutThePickedCell();
    void titlePageNamesTheSettings();
    void titleAndFootersNameTheLayersKind_data();
    void titleAndFootersNameTheLayersKind();
    void everyPageLaysOutForEverySetting_data();
    void everyPageLaysOutForEverySetting();
};

namespace {

PdfPages writeHandout(const test::PipelineCase &c, const PageSetup &page = {},
                      std::optional<CellChoice> cell = std::nullopt, int *pages = nullptr)
{
    QTemporaryDir dir;
    const QString path = dir.filePath("handout.pdf");
    auto analysis = std::make_shared<TraceAnalysis>();
    analysis->trace = c.trace;
    analysis->parameters = c.weights;
    HandoutWriter writer(c.trace, analysis, 0, PlotStyle());
    writer.setPage(page);
    if (cell)
        writer.setCell(*cell);
    const int written = writer.write(path);
    if (pages)
        *pages = written;
    QFile file(path);
    return PdfPages(file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray());
}

/// A layer the window accepts: `heads` over d_model, `kvHeads` K/V heads (0: as many),
/// "rope", "alibi" or "none", a window (0: none), causal, over a text of `tokens` words.
test::PipelineCase settingCase(int dModel, int heads, int kvHeads, const QString &positions,
                               int window, int tokens)
{
    AttentionConfig config;
    config.dModel = dModel;
    config.heads = heads;
    config.kvHeads = kvHeads;
    config.attentionPositions = positions == "rope"    ? AttentionPositions::Rope
                                : positions == "alibi" ? AttentionPositions::Alibi
                                                       : AttentionPositions::None;
    config.window = window;
    config.causal = positions != "none" || window > 0;
    static const char *const kWords[] = {"The",   "tired", "robot",   "dropped", "the",
                                         "heavy", "gear",  "because", "it",      "broke"};
    QStringList words;
    for (int i = 0; i < tokens; ++i)
        words << kWords[i % 10];
    return test::makeCaseOf(config, {words.join(' ').toStdString()});
}

/// A page's texts as one line, spaces folded, so a phrase split over text blocks still reads;
/// ligatures (the "ﬁ" of "first", one glyph) as their letters.
QString joined(const QStringList &texts)
{
    return texts.join(' ').normalized(QString::NormalizationForm_KC).simplified();
}

} // namespace

void TestHandoutWriter::onePagePerStep_data()
{
    test::addPipelineCases();
}

// A title page, then a page per step: in what write() says and in the file's page tree.
void TestHandoutWriter::onePagePerStep()
{
    QFETCH(QString, caseName);
    const test::PipelineCase c = test::makePipelineCase(caseName);
    int pages = 0;
    const PdfPages pdf = writeHandout(c, {}, std::nullopt, &pages);
    QCOMPARE(pages, int(c.trace->steps.size()) + 1);
    QCOMPARE(pdf.pageSizes().size(), pages);
    QCOMPARE(pdf.pageTexts().size(), pages);
}

// The window shows "page k of n" and turns the event loop between pages (a long handout took
// 1.6 s in one go): it hears of every page, in order, each once.
void TestHandoutWriter::progressHearsOfEveryPage()
{
    const test::PipelineCase c = test::makePipelineCase("untied");
    QTemporaryDir dir;
    HandoutWriter writer(c.trace, nullptr, 0, PlotStyle());
    QList<QPair<int, int>> heard;
    writer.setProgress([&heard](int painted, int pages) {
        heard << qMakePair(painted, pages);
        return true;
    });
    const int pages = writer.write(dir.filePath("handout.pdf"));
    QCOMPARE(pages, int(c.trace->steps.size()) + 1);
    QCOMPARE(heard.size(), pages);
    for (int i = 0; i < pages; ++i)
        QCOMPARE(heard.at(i), qMakePair(i + 1, pages));
}

// Cancel in the progress dialog: no half handout, and the file that was there stays whole.
void TestHandoutWriter::stoppingLeavesTheFileAsItWas()
{
    const test::PipelineCase c = test::makePipelineCase("untied");
    QTemporaryDir dir;
    const QString path = dir.filePath("handout.pdf");
    {
        QFile earlier(path);
        QVERIFY(earlier.open(QIODevice::WriteOnly));
        earlier.write("last week's handout");
    }
    HandoutWriter writer(c.trace, nullptr, 0, PlotStyle());
    int heard = 0;
    writer.setProgress([&heard](int painted, int) {
        ++heard;
        return painted < 3;
    });
    QCOMPARE(writer.write(path), 0);
    QCOMPARE(heard, 3); // stopped at once, not at the end
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("last week's handout"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"handout.pdf"}); // no leftovers
}

void TestHandoutWriter::noPageShowsAWidget_data()
{
    test::addPipelineCases();
}

// The window's controls (stepper buttons, the speed and tensor pickers, the side tabs) are no
// part of a printed lesson.
void TestHandoutWriter::noPageShowsAWidget()
{
    QFETCH(QString, caseName);
    const QList<QStringList> pages = writeHandout(test::makePipelineCase(caseName)).pageTexts();
    QVERIFY(!pages.isEmpty());
    static const QRegularExpression widgetText(
        R"(\b(First|Previous|Next|Last|Play|Pause)\b|normal \(3 s\)|Token:|Four ways|)"
        R"(Split & concat|Click any cell)");
    for (int i = 0; i < pages.size(); ++i) {
        const QString text = joined(pages[i]);
        const QRegularExpressionMatch m = widgetText.match(text);
        QVERIFY2(
            !m.hasMatch(),
            qPrintable(
                QString("page %1 shows \"%2\": %3").arg(i + 1).arg(m.captured(0), text.left(300))));
    }
}

// Page 1 + i is step i: its number and name, its formula and its PyTorch line, as text.
void TestHandoutWriter::eachStepPageNamesItsStepAndFormula()
{
    const test::PipelineCase c = test::makePipelineCase("lesson");
    const QList<QStringList> pages = writeHandout(c).pageTexts();
    const auto &steps = c.trace->steps;
    QCOMPARE(pages.size(), int(steps.size()) + 1);
    for (int i = 0; i < int(steps.size()); ++i) {
        const QString text = joined(pages[i + 1]);
        const QString title = QString("Step %1 of %2: %3")
                                  .arg(i + 1)
                                  .arg(steps.size())
                                  .arg(QString::fromStdString(steps[size_t(i)].title));
        QVERIFY2(text.contains(title), qPrintable(title + " | " + text.left(200)));
        for (const std::string &line : {steps[size_t(i)].formula, steps[size_t(i)].pytorch}) {
            const QString expected = QString::fromStdString(line).simplified();
            QVERIFY2(text.contains(expected), qPrintable(expected + " | " + text.left(400)));
        }
    }
}

void TestHandoutWriter::everyPageHasItsNumberAndTheSettings()
{
    const QList<QStringList> pages = writeHandout(test::makePipelineCase("untied")).pageTexts();
    for (int i = 0; i < pages.size(); ++i) {
        const QString text = joined(pages[i]);
        QVERIFY2(text.contains(QString("page %1 of %2").arg(i + 1).arg(pages.size())),
                 qPrintable(text.right(200)));
        QVERIFY2(text.contains("d_model 24 · h 3 · d_k 5 · d_v 7"), qPrintable(text.right(200)));
    }
}

void TestHandoutWriter::pagesHaveThePaperAsked_data()
{
    QTest::addColumn<int>("size");
    QTest::addColumn<bool>("landscape");
    QTest::addColumn<QSizeF>("points");
    QTest::newRow("A4 portrait") << int(QPageSize::A4) << false << QSizeF(595.3, 841.9);
    QTest::newRow("A4 landscape") << int(QPageSize::A4) << true << QSizeF(841.9, 595.3);
    QTest::newRow("Letter portrait") << int(QPageSize::Letter) << false << QSizeF(612, 792);
    QTest::newRow("Letter landscape") << int(QPageSize::Letter) << true << QSizeF(792, 612);
}

// Every page's MediaBox is the paper in points (A4 is 210 x 297 mm, Letter 8.5 x 11 in).
void TestHandoutWriter::pagesHaveThePaperAsked()
{
    QFETCH(int, size);
    QFETCH(bool, landscape);
    QFETCH(QSizeF, points);
    const PageSetup page{QPageSize::PageSizeId(size),
                         landscape ? QPageLayout::Landscape : QPageLayout::Portrait};
    const QList<QSizeF> sizes = writeHandout(test::makePipelineCase("causal"), page).pageSizes();
    QCOMPARE(sizes.size(), 15);
    for (const QSizeF &s : sizes) {
        QVERIFY2(std::abs(s.width() - points.width()) < 1.0 &&
                     std::abs(s.height() - points.height()) < 1.0,
                 qPrintable(QString("%1 x %2 pt").arg(s.width()).arg(s.height())));
    }
}

// Heatmaps, bars and diagrams are vector drawings and every font is embedded, so the handout
// prints sharp and its text can be selected. The only bitmaps are the colour bars' gradients
// (QCustomPlot draws a bar as one column of its 256 levels): a heatmap drawn as a bitmap would
// be an image of at least 100 pixels a side.
void TestHandoutWriter::drawnAsVectorsWithEmbeddedFonts()
{
    const PdfPages pdf = writeHandout(test::makePipelineCase("lesson"));
    const QList<QSize> images = pdf.imageSizes();
    QVERIFY(!images.isEmpty()); // the colour bars
    for (const QSize &image : images)
        QVERIFY2(image.height() == 256 && image.width() <= 40,
                 qPrintable(QString("a %1 x %2 bitmap").arg(image.width()).arg(image.height())));
    QVERIFY(pdf.fontCount() > 0);
    QCOMPARE(pdf.fontsNotEmbedded(), QStringList());
}

// Without a picked cell, the one-cell pages work out head 1's largest weight.
void TestHandoutWriter::oneCellPagesWorkOutTheStrongestWeight()
{
    const test::PipelineCase c = test::makePipelineCase("lesson");
    const RowMatrix w = TraceReader::weights(*c.trace, 0, 0);
    Eigen::Index query = 0, key = 0;
    w.maxCoeff(&query, &key);
    const QList<QStringList> pages = writeHandout(c).pageTexts();
    const QString softmax = joined(pages[9]); // step 9 of 14
    QVERIFY2(softmax.contains("Step 9 of 14: Softmax"), qPrintable(softmax.left(100)));
    QVERIFY(softmax.contains("the strongest weight of head 1"));
    // The head's name is coloured: a text block of its own before ": query ...".
    const QRegularExpression cell(
        QString(R"(head 1\s*: query %1 \S+ → key %2 )").arg(query + 1).arg(key + 1));
    QVERIFY2(cell.match(softmax).hasMatch(), qPrintable(cell.pattern() + " | " + softmax));
    const QString weight = QString::number(double(w(query, key)), 'f', 4);
    QVERIFY2(softmax.contains("= " + weight), qPrintable(weight + " | " + softmax));
}

void TestHandoutWriter::oneCellPagesWorkOutThePickedCell()
{
    const test::PipelineCase c = test::makePipelineCase("untied");
    const QList<QStringList> pages = writeHandout(c, {}, CellChoice{2, 4, 7, true}).pageTexts();
    for (int page : {6, 7, 8, 9, 10}) { // scores, scale, mask, softmax, dropout
        const QString text = joined(pages[page]);
        QVERIFY2(text.contains("the cell you picked"), qPrintable(text.left(200)));
        static const QRegularExpression cell(R"(head 3\s*: query 5 \S+ → key 8 )");
        QVERIFY2(cell.match(text).hasMatch(), qPrintable(text.left(600)));
    }
}

void TestHandoutWriter::titlePageNamesTheSettings()
{
    const test::PipelineCase c = test::makePipelineCase("untied");
    const QString lines =
        HandoutWriter(c.trace, nullptr, 0, PlotStyle()).settingsLines().join('\n');
    QVERIFY2(lines.contains("d_model = 24 · h = 3 heads · d_k = 5 · d_v = 7"), qPrintable(lines));
    QVERIFY(lines.contains("The tired robot"));
    const QString title = joined(writeHandout(c).pageTexts().value(0));
    QVERIFY2(title.contains("Multi-head attention, step by step") &&
                 title.contains("d_model = 24 · h = 3 heads") && title.contains("Printed on") &&
                 title.contains("head 1") && title.contains("head 3"),
             qPrintable(title));
}

void TestHandoutWriter::titleAndFootersNameTheLayersKind_data()
{
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<QStringList>("title");  ///< on the title page
    QTest::addColumn<QStringList>("footer"); ///< in every page's footer
    QTest::newRow("gqa-rope") << "gqa-rope"
                              << QStringList{"h = 8 heads · h_kv = 2 K/V heads · d_k = 4", "RoPE",
                                             "θ = 10000"}
                              << QStringList{"h 8 · h_kv 2 · d_k 4 · d_v 4 · RoPE · seed 3"};
    QTest::newRow("alibi") << "alibi" << QStringList{"ALiBi (a linear distance bias per head)"}
                           << QStringList{"d_v 8 · ALiBi · seed 3"};
    QTest::newRow("window") << "window" << QStringList{"sliding window of 3 keys"}
                            << QStringList{"d_v 8 · window 3 · seed 3"};
}

// A lesson on a Llama-like layer is printed with its K/V heads, its positions and its window:
// the title page and the footers left all three out.
void TestHandoutWriter::titleAndFootersNameTheLayersKind()
{
    QFETCH(QString, caseName);
    QFETCH(QStringList, title);
    QFETCH(QStringList, footer);
    const QList<QStringList> pages = writeHandout(test::makePipelineCase(caseName)).pageTexts();
    QVERIFY(!pages.isEmpty());
    const QString first = joined(pages[0]);
    for (const QString &setting : title)
        QVERIFY2(first.contains(setting), qPrintable(setting + " | " + first.left(500)));
    for (int i = 0; i < pages.size(); ++i) {
        const QString text = joined(pages[i]);
        for (const QString &setting : footer)
            QVERIFY2(
                text.contains(setting),
                qPrintable(QString("page %1: %2 | %3").arg(i + 1).arg(setting, text.right(200))));
    }
}

void TestHandoutWriter::everyPageLaysOutForEverySetting_data()
{
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<QString>("positions");
    QTest::addColumn<int>("window");
    QTest::addColumn<int>("tokens");
    QTest::addColumn<bool>("landscape");
    QTest::newRow("h 8, h_kv 2, RoPE") << 512 << 8 << 2 << "rope" << 0 << 10 << false;
    QTest::newRow("64 tokens, h 16, h_kv 4, RoPE, window 16")
        << 512 << 16 << 4 << "rope" << 16 << 64 << false;
    QTest::newRow("h 16, h_kv 2, RoPE, landscape") << 512 << 16 << 2 << "rope" << 0 << 10 << true;
    if (test::underSanitizers()) // the other settings' layouts: the release build's
        return;
    QTest::newRow("h 1") << 512 << 1 << 0 << "none" << 0 << 10 << false;
    QTest::newRow("h 8") << 512 << 8 << 0 << "none" << 0 << 10 << false;
    QTest::newRow("h 12, h_kv 4, RoPE") << 768 << 12 << 4 << "rope" << 0 << 10 << false;
    QTest::newRow("h 16, h_kv 2, RoPE") << 512 << 16 << 2 << "rope" << 0 << 10 << false;
    QTest::newRow("h 16, ALiBi") << 512 << 16 << 0 << "alibi" << 0 << 10 << false;
    QTest::newRow("h 12, window 4") << 768 << 12 << 0 << "none" << 4 << 10 << false;
    QTest::newRow("64 tokens, h 1, ALiBi") << 512 << 1 << 0 << "alibi" << 0 << 64 << false;
}

// Every heatmap of every page is drawn large enough to see (each cell a printed dot, each
// heatmap a few millimetres), and no block reaches the footer or another block: a block
// counts at the size it needs, so a table cut off at the footer fails too. Tiles of zero
// height past 8 heads and the "Scores" page of GQA with RoPE (its 64-row table taking the
// page, every heatmap about a pixel tall) passed every other handout test.
void TestHandoutWriter::everyPageLaysOutForEverySetting()
{
    QFETCH(int, dModel);
    QFETCH(int, heads);
    QFETCH(int, kvHeads);
    QFETCH(QString, positions);
    QFETCH(int, window);
    QFETCH(int, tokens);
    QFETCH(bool, landscape);
    const test::PipelineCase c = settingCase(dModel, heads, kvHeads, positions, window, tokens);
    QTemporaryDir dir;
    HandoutWriter writer(c.trace, nullptr, 0, PlotStyle());
    writer.setPage({QPageSize::A4, landscape ? QPageLayout::Landscape : QPageLayout::Portrait});
    std::vector<LaidOutPage> pages;
    QCOMPARE(writer.write(dir.filePath("handout.pdf"), &pages), int(c.trace->steps.size()) + 1);
    QCOMPARE(int(pages.size()), int(c.trace->steps.size()) + 1);
    const double millimetre = PrintCanvas::layoutDpi() / 25.4;
    const double minCell = 0.25 * millimetre, minSide = 6.0 * millimetre;
    for (size_t p = 0; p < pages.size(); ++p) {
        const LaidOutPage &page = pages[p];
        const QString where = QString("page %1").arg(p + 1);
        QVERIFY2(!page.heatmaps.empty(), qPrintable(where + " draws no heatmap"));
        for (size_t i = 0; i < page.heatmaps.size(); ++i) {
            const LaidOutPage::Heatmap &h = page.heatmaps[i];
            const QSizeF cell(h.cells.width() / h.cols, h.cells.height() / h.rows);
            QVERIFY2(std::min(cell.width(), cell.height()) >= minCell &&
                         std::min(h.cells.width(), h.cells.height()) >= minSide,
                     qPrintable(QString("%1, heatmap %2: %3 x %4 cells drawn %5 x %6 px, each "
                                        "%7 x %8 px")
                                    .arg(where)
                                    .arg(i + 1)
                                    .arg(h.rows)
                                    .arg(h.cols)
                                    .arg(h.cells.width(), 0, 'f', 1)
                                    .arg(h.cells.height(), 0, 'f', 1)
                                    .arg(cell.width(), 0, 'f', 2)
                                    .arg(cell.height(), 0, 'f', 2)));
        }
        for (size_t i = 0; i < page.blocks.size(); ++i) {
            const LaidOutPage::Block &block = page.blocks[i];
            QVERIFY2(block.rect.bottom() <= page.footer.top(),
                     qPrintable(QString("%1: the %2 ends at %3, below the footer's top %4")
                                    .arg(where, block.what)
                                    .arg(block.rect.bottom())
                                    .arg(page.footer.top())));
            for (size_t j = i + 1; j < page.blocks.size(); ++j) {
                const QRectF both = block.rect.intersected(page.blocks[j].rect);
                QVERIFY2(both.width() * both.height() < 1.0,
                         qPrintable(QString("%1: the %2 and the %3 overlap")
                                        .arg(where, block.what, page.blocks[j].what)));
            }
        }
    }
}

HEADLENS_TEST_MAIN(TestHandoutWriter)
#include "tst_handoutwriter.moc"
