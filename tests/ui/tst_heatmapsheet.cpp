// tst_heatmapsheet: a sheet of heatmaps on paper has square cells of one size in every panel.
#include "print/heatmapsheet.h"
#include "print/printcanvas.h"
#include "print/sheetbuilder.h"
#include "testmain.h"
#include "wordstrace.h"

#include <qcustomplot.h>

#include <QImage>
#include <QTest>

#include <cmath>

using namespace headlens;

using headlens::test::traceOf;

namespace {

constexpr double kInchesPerCm = 1.0 / 2.54;

} // namespace

class TestHeatmapSheet : public QObject
{
    Q_OBJECT

private slots:
    void cellsAreSquareAndAlikeInEveryPanel_data();
    void cellsAreSquareAndAlikeInEveryPanel();
};

void TestHeatmapSheet::cellsAreSquareAndAlikeInEveryPanel_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("words");
    QTest::addColumn<QSizeF>("inches");
    QTest::newRow("8 heads, 8.5 x 6 cm") << 8 << 10 << QSizeF(8.5 * kInchesPerCm, 6 * kInchesPerCm);
    QTest::newRow("8 heads, 16 x 10 cm") << 8 << 10 << QSizeF(16 * kInchesPerCm, 10 * kInchesPerCm);
    QTest::newRow("4 heads, wide strip") << 4 << 10 << QSizeF(30 * kInchesPerCm, 6 * kInchesPerCm);
    QTest::newRow("12 heads, tall") << 12 << 7 << QSizeF(8 * kInchesPerCm, 20 * kInchesPerCm);
    QTest::newRow("1 head") << 1 << 10 << QSizeF(10 * kInchesPerCm, 9 * kInchesPerCm);
    QTest::newRow("300 tokens, pooled") << 2 << 300 << QSizeF(16 * kInchesPerCm, 9 * kInchesPerCm);
}

// Every panel's cells are square and the same size as every other panel's, and the grid takes
// the whole width or the whole height it is given.
void TestHeatmapSheet::cellsAreSquareAndAlikeInEveryPanel()
{
    QFETCH(int, heads);
    QFETCH(int, words);
    QFETCH(QSizeF, inches);
    const auto trace = traceOf(heads, words);
    const int dpi = PrintCanvas::layoutDpi();
    QImage image(QSize(qRound(inches.width() * dpi), qRound(inches.height() * dpi)),
                 QImage::Format_RGB32);
    QCPPainter painter(&image);
    painter.setMode(QCPPainter::pmVectorized);
    HeatmapSheet sheet(SheetBuilder::heads(trace, 0, PlotStyle{}), PlotStyle{}, 7.5);
    const QRectF area(0, 0, image.width(), image.height());
    sheet.fitLabels(5.5, 10.0, area.size());
    const QRectF used = sheet.paint(painter, area);
    painter.end();
    const std::vector<QRectF> &cells = sheet.cellAreas();
    QCOMPARE(int(cells.size()), heads);
    const double side = cells.front().width() / words;
    QVERIFY2(cells.front().width() > 20.0, qPrintable(QString::number(cells.front().width())));
    for (const QRectF &c : cells) {
        QVERIFY2(std::abs(c.width() / words - c.height() / words) <= 1.0 / words + 1e-9,
                 qPrintable(QString("%1 x %2 pixels").arg(c.width()).arg(c.height())));
        QVERIFY2(std::abs(c.width() - cells.front().width()) <= 1.0,
                 qPrintable(QString("%1 against %2").arg(c.width()).arg(cells.front().width())));
        QVERIFY(area.contains(c));
    }
    QVERIFY2(used.width() > area.width() - 2 * side - 2 ||
                 used.height() > area.height() - 2 * side - 2,
             qPrintable(QString("used %1 x %2 of %3 x %4")
                            .arg(used.width())
                            .arg(used.height())
                            .arg(area.width())
                            .arg(area.height())));
}

HEADLENS_TEST_MAIN(TestHeatmapSheet)
#include "tst_heatmapsheet.moc"
