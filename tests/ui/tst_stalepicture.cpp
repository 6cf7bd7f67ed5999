// tst_stalepicture: after settings that cannot be computed, the heads stay on screen once, faded.
#include "drawnheatmap.h"
#include "plot/heatmapplot.h"
#include "testmain.h"
#include "views/headsgridview.h"
#include "views/stalefade.h"
#include "views/stalemark.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include <QScreen>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <set>
#include <vector>

using namespace headlens;
using headlens::test::gridOf;
using headlens::test::workspaceOf;

namespace {

/// What the screen shows of `window`: the platform's copy of the window's backing store, with
/// whatever earlier paints left in it. QWidget::grab paints every widget afresh and would not
/// show a picture drawn over the one before it.
QImage onScreen(MainWindow &window)
{
    QApplication::processEvents();
    return window.screen()
        ->grabWindow(window.winId())
        .toImage()
        .convertToFormat(QImage::Format_RGB32);
}

/// The colour on screen at the centre of every drawn cell of every head, head by head, row by
/// row.
std::vector<QRgb> cellColours(MainWindow &window, const QImage &screen)
{
    std::vector<QRgb> colours;
    HeadsGridView *grid = gridOf(window);
    for (int head = 0; head < grid->plotCount(); ++head) {
        HeatmapPlot *plot = grid->plot(head);
        QCPColorMapData *data = test::colorMapOf(*plot)->data();
        for (int i = 0; i < data->valueSize(); ++i)
            for (int j = 0; j < data->keySize(); ++j) {
                const QPointF centre = test::cellCentre(*plot, i, j);
                const QPoint at = plot->mapTo(
                    &window, QPoint(int(std::floor(centre.x())), int(std::floor(centre.y()))));
                colours.push_back(screen.pixel(at * screen.devicePixelRatio()));
            }
    }
    return colours;
}

/// The cells' colours once two looks 100 ms apart agree (the plots replot when the event loop
/// lets them), within five seconds.
std::vector<QRgb> settledCellColours(MainWindow &window)
{
    std::vector<QRgb> colours = cellColours(window, onScreen(window));
    for (int waited = 0; waited < 5000; waited += 100) {
        QTest::qWait(100);
        std::vector<QRgb> again = cellColours(window, onScreen(window));
        if (again == colours)
            break;
        colours = std::move(again);
    }
    return colours;
}

/// Empty when every cell of `after` is its colour in `before` blended once with `background`
/// at StaleFade::kPictureOpacity (each channel within 3); otherwise the first that is not.
QString fadeMismatch(const std::vector<QRgb> &before, const std::vector<QRgb> &after,
                     const QColor &background, int heads)
{
    if (after.size() != before.size())
        return QString("%1 cells, %2 before").arg(after.size()).arg(before.size());
    const double a = StaleFade::kPictureOpacity;
    const auto blended = [a](int picture, int back) {
        return int(std::lround(a * picture + (1.0 - a) * back));
    };
    for (size_t c = 0; c < before.size(); ++c) {
        const QRgb want = qRgb(blended(qRed(before[c]), background.red()),
                               blended(qGreen(before[c]), background.green()),
                               blended(qBlue(before[c]), background.blue()));
        const QRgb seen = after[c];
        if (std::abs(qRed(seen) - qRed(want)) > 3 || std::abs(qGreen(seen) - qGreen(want)) > 3 ||
            std::abs(qBlue(seen) - qBlue(want)) > 3) {
            const size_t perHead = before.size() / size_t(heads);
            return QString("head %1, cell %2: %3 before, %4 faded, expected %5")
                .arg(c / perHead + 1)
                .arg(c % perHead)
                .arg(QColor(before[c]).name(), QColor(seen).name(), QColor(want).name());
        }
    }
    return {};
}

} // namespace

class TestStalePicture : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void theLastPictureIsDrawnOnceFaded();

private:
    QTemporaryDir m_dir;
};

void TestStalePicture::initTestCase()
{
    QVERIFY(m_dir.isValid());
    test::keepSettingsIn(m_dir.path());
}

// d_model 8 over 3 heads cannot be computed: the 8 heads of the lesson stay, under the band
// that says why. Each of their cells is on screen in its colour of before, blended once with
// the window's background: the fade drawn over the picture it replaced showed two grids in two
// layouts, token labels doubled, and passed while only the band's text was checked.
void TestStalePicture::theLastPictureIsDrawnOnceFaded()
{
    MainWindow window; // on the (offscreen) screen, so that it has a backing store to read
    window.resize(1300, 850);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.recompute();
    QVERIFY(test::waitUntilSettled(window));
    HeadsGridView *grid = gridOf(window);
    QCOMPARE(grid->plotCount(), 8);
    const std::vector<QRgb> before = settledCellColours(window);
    QVERIFY(std::set<QRgb>(before.begin(), before.end()).size() > 20); // a picture, not a blank

    AttentionConfig config = workspaceOf(window)->state().config;
    config.dModel = 8;
    config.heads = 3;
    workspaceOf(window)->setConfig(config);
    QVERIFY(test::waitUntilIdle(window));
    QTRY_VERIFY(grid->staleMark()->isVisible());
    QCOMPARE(grid->plotCount(), 8); // the last picture's heads
    const QRect band(grid->staleMark()->mapTo(&window, QPoint(0, 0)), grid->staleMark()->size());
    QVERIFY2(band.bottom() < grid->scrollArea()->mapTo(&window, QPoint(0, 0)).y(),
             "the band is above the picture");
    // The grid is arranged again under the band and painted when the event loop runs.
    const QColor background = grid->palette().color(QPalette::Window);
    QString mismatch;
    const bool faded = QTest::qWaitFor(
        [&] {
            mismatch = fadeMismatch(before, cellColours(window, onScreen(window)), background, 8);
            return mismatch.isEmpty();
        },
        5000);
    QVERIFY2(faded, qPrintable(mismatch));
}

HEADLENS_TEST_MAIN(TestStalePicture)
#include "tst_stalepicture.moc"
