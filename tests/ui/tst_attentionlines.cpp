// tst_attentionlines: the Lines tab draws one line per weight of the heads chosen, from the
// query's label to the key's, in the head's colour with the weight as its opacity; hovering a
// token keeps only its lines; a long text grows the view (it scrolls) instead of squeezing rows.
#include "mainwindow.h"
#include "plot/headcolors.h"
#include "selection/selection.h"
#include "views/attentionlines.h"
#include "views/linesview.h"
#include "views/tracereader.h"
#include "windowsettled.h"
#include "wordstrace.h"

#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace headlens;
using headlens::test::traceOf;
using headlens::test::waitUntilSettled;
using Side = AttentionLines::Side;

class TestAttentionLines : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyWeightAboveTheThresholdIsALine();
    void oneHeadAlone();
    void hoveringATokenKeepsItsLines();
    void linesJoinTheLabelsRows();
    void theLineIsDrawnInItsHeadsColour();
    void manyLinesArePaintedOnceThePoolDrewThem();
    void aResizedViewKeepsItsLinesUntilTheNewPictureComes();
    void theShownPictureLetsItsTraceGo();
    void longTextsScrollInsteadOfSqueezing();
    void theWindowsTabFollowsThePinnedHead();

private:
    QTemporaryDir m_dir;
};

namespace {

/// Every (head, query, key) the trace's weights put at or above the threshold.
int expectedLines(const Trace &trace, int onlyHead = -1, int onlyQuery = -1, int onlyKey = -1)
{
    int count = 0;
    for (int head = 0; head < trace.heads(); ++head) {
        if (onlyHead >= 0 && head != onlyHead)
            continue;
        const RowMatrix w = TraceReader::weights(trace, 0, head);
        for (int i = 0; i < w.rows(); ++i)
            for (int j = 0; j < w.cols(); ++j)
                if ((onlyQuery < 0 || i == onlyQuery) && (onlyKey < 0 || j == onlyKey) &&
                    w(i, j) >= AttentionLines::kThreshold)
                    ++count;
    }
    return count;
}

/// Pixels between the two columns of line ends that are not the background (white): the lines.
int linePixels(const QImage &image, const AttentionLines &lines)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = int(lines.queryAnchor(0).x()) + 2; x < int(lines.keyAnchor(0).x()) - 2; ++x)
            count += image.pixel(x, y) != qRgb(255, 255, 255) ? 1 : 0;
    return count;
}

} // namespace

void TestAttentionLines::initTestCase()
{
    QVERIFY(m_dir.isValid()); // the window's session goes here, not into the user's settings
    test::keepSettingsIn(m_dir.path());
}

void TestAttentionLines::everyWeightAboveTheThresholdIsALine()
{
    const auto trace = traceOf(4, 6);
    AttentionLines lines;
    lines.setTrace(trace, 0);
    const auto drawn = lines.visibleLines();
    QCOMPARE(int(drawn.size()), expectedLines(*trace));
    for (const auto &line : drawn)
        QCOMPARE(line.weight,
                 double(TraceReader::weights(*trace, 0, line.head)(line.query, line.key)));
    QCOMPARE(lines.queryLabels(), TraceReader::queryLabels(*trace, 0));
}

void TestAttentionLines::oneHeadAlone()
{
    const auto trace = traceOf(4, 6);
    AttentionLines lines;
    lines.setTrace(trace, 0);
    lines.setHeads({2});
    const auto drawn = lines.visibleLines();
    QCOMPARE(int(drawn.size()), expectedLines(*trace, 2));
    for (const auto &line : drawn)
        QCOMPARE(line.head, 2);
}

void TestAttentionLines::hoveringATokenKeepsItsLines()
{
    const auto trace = traceOf(2, 6);
    AttentionLines lines;
    lines.setTrace(trace, 0);
    lines.resize(600, lines.minimumSizeHint().height());
    lines.show();
    QVERIFY(QTest::qWaitForWindowExposed(&lines));
    // The mouse over query 3's label, then key 1's.
    QTest::mouseMove(&lines, (lines.queryAnchor(3) - QPointF(12, 0)).toPoint());
    QTRY_COMPARE(int(lines.visibleLines().size()), expectedLines(*trace, -1, 3));
    for (const auto &line : lines.visibleLines())
        QCOMPARE(line.query, 3);
    QTest::mouseMove(&lines, (lines.keyAnchor(1) + QPointF(12, 0)).toPoint());
    QTRY_COMPARE(int(lines.visibleLines().size()), expectedLines(*trace, -1, -1, 1));
    for (const auto &line : lines.visibleLines())
        QCOMPARE(line.key, 1);
    lines.setFocus(Side::None, -1);
    QCOMPARE(int(lines.visibleLines().size()), expectedLines(*trace));
}

void TestAttentionLines::linesJoinTheLabelsRows()
{
    const auto trace = traceOf(2, 5);
    AttentionLines lines;
    lines.setTrace(trace, 0);
    lines.resize(600, lines.minimumSizeHint().height());
    // Rows one line height apart, queries left of keys, and a token's row is where it is hit.
    const double step = lines.queryAnchor(1).y() - lines.queryAnchor(0).y();
    QCOMPARE_GE(step, double(lines.fontMetrics().height()));
    QCOMPARE(lines.keyAnchor(4).y(), lines.queryAnchor(4).y());
    QCOMPARE_LT(lines.queryAnchor(0).x(), lines.keyAnchor(0).x());
    for (int token = 0; token < 5; ++token) {
        QCOMPARE(lines.tokenAt(lines.queryAnchor(token) - QPointF(10, 0)),
                 std::make_pair(Side::Query, token));
        QCOMPARE(lines.tokenAt(lines.keyAnchor(token) + QPointF(10, 0)),
                 std::make_pair(Side::Key, token));
    }
}

void TestAttentionLines::theLineIsDrawnInItsHeadsColour()
{
    const auto trace = traceOf(2, 5);
    AttentionLines lines;
    lines.setTrace(trace, 0);
    lines.resize(600, lines.minimumSizeHint().height());
    lines.setHeads({1});
    // Head 2's strongest weight in query 4's row: the pixel in the middle of its line has the
    // head's hue, blended over white by the weight.
    const RowMatrix w = TraceReader::weights(*trace, 0, 1);
    Eigen::Index key = 0;
    const double weight = w.row(4).maxCoeff(&key);
    lines.setFocus(Side::Query, 4);
    const QImage image = lines.grab().toImage();
    const QPointF middle = (lines.queryAnchor(4) + lines.keyAnchor(int(key))) / 2.0;
    const QColor head = HeadColors::color(1, false);
    auto blended = [&](int channel) { return weight * channel + (1 - weight) * 255; };
    // The line is a pixel or two wide: the best of the pixels around the middle, antialiased.
    double best = 1e9;
    for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -2; dy <= 2; ++dy) {
            const QColor drawn = image.pixelColor(middle.toPoint() + QPoint(dx, dy));
            best = std::min(best, std::abs(drawn.red() - blended(head.red())) +
                                      std::abs(drawn.green() - blended(head.green())) +
                                      std::abs(drawn.blue() - blended(head.blue())));
        }
    QCOMPARE_LE(best, 40.0);
}

// 40 causal tokens give one head 820 lines, too many to draw on the UI thread: the picture
// comes from the thread pool, and then the first query's line (its one key, weight 1) is drawn
// in the head's colour, opaque.
void TestAttentionLines::manyLinesArePaintedOnceThePoolDrewThem()
{
    const auto trace = traceOf(2, 40, true);
    AttentionLines lines;
    lines.setTrace(trace, 0);
    lines.setHeads({1});
    lines.resize(600, lines.minimumSizeHint().height());
    QCOMPARE_GT(lines.visibleLines().size(), AttentionLines::kInlineLines);
    lines.requestPicture();
    QVERIFY(!lines.pictureReady()); // it arrives through the event loop
    QTRY_VERIFY(lines.pictureReady());
    const QImage image = lines.grab().toImage();
    // Query 1's line is level with its row; every other line leaves from a row below it.
    const QPointF middle = (lines.queryAnchor(0) + lines.keyAnchor(0)) / 2.0;
    const QColor head = HeadColors::color(1, false);
    const QColor drawn = image.pixelColor(middle.toPoint());
    QCOMPARE_LE(std::abs(drawn.red() - head.red()) + std::abs(drawn.green() - head.green()) +
                    std::abs(drawn.blue() - head.blue()),
                12);
}

// While the view is resized its lines stay (the last picture, stretched onto the new rows)
// until the pool's picture of the new size comes: they used to vanish, blinking through a
// resize. The stretched lines end at the new labels: query 1's line to key 1 is where the new
// anchors put it, in the head's colour.
void TestAttentionLines::aResizedViewKeepsItsLinesUntilTheNewPictureComes()
{
    const auto trace = traceOf(2, 40, true);
    AttentionLines lines;
    lines.setTrace(trace, 0);
    lines.setHeads({1});
    lines.resize(600, lines.minimumSizeHint().height());
    lines.requestPicture();
    QTRY_VERIFY(lines.pictureReady());

    lines.resize(900, lines.minimumSizeHint().height() + 200);
    QVERIFY(!lines.pictureReady());
    const QImage stretched = lines.grab().toImage(); // asks for the new picture, not yet come
    QVERIFY(!lines.pictureReady());
    const QPointF middle = (lines.queryAnchor(0) + lines.keyAnchor(0)) / 2.0;
    const QColor head = HeadColors::color(1, false);
    int best = 1000; // the stretched line is smoothed: the best pixel across its width
    for (int dy = -1; dy <= 1; ++dy) {
        const QColor drawn = stretched.pixelColor(middle.toPoint() + QPoint(0, dy));
        best = std::min(best, std::abs(drawn.red() - head.red()) +
                                  std::abs(drawn.green() - head.green()) +
                                  std::abs(drawn.blue() - head.blue()));
    }
    QCOMPARE_LE(best, 24);

    QTRY_VERIFY(lines.pictureReady());
    const int fresh = linePixels(lines.grab().toImage(), lines);
    QCOMPARE_GT(fresh, 0);
    // The stretched picture covers about as much as the new one: its lines, not a corner.
    QCOMPARE_GT(linePixels(stretched, lines), fresh * 7 / 10);
    QCOMPARE_LT(linePixels(stretched, lines), fresh * 13 / 10);
}

// The picture on screen names its trace without owning it: a model's trace is a handle on
// the whole run (about 1 GiB at 1,024 tokens), which lived on beside the next run while the
// new picture was drawn (seconds at that length). The next trace's picture has its own lines.
void TestAttentionLines::theShownPictureLetsItsTraceGo()
{
    auto first = traceOf(2, 40, true);
    const std::weak_ptr<const Trace> firstAlive = first;
    AttentionLines lines;
    lines.setTrace(first, 0);
    lines.setHeads({1});
    lines.resize(600, lines.minimumSizeHint().height());
    lines.requestPicture();
    QTRY_VERIFY(lines.pictureReady());

    const auto second = traceOf(2, 30, true);
    lines.setTrace(second, 0);
    first.reset();
    QVERIFY(!lines.pictureReady());
    QVERIFY(firstAlive.expired());
    lines.requestPicture();
    QTRY_VERIFY(lines.pictureReady());
    QCOMPARE_GT(linePixels(lines.grab().toImage(), lines), 0);
    QCOMPARE(int(lines.visibleLines().size()), expectedLines(*second, 1));
}

void TestAttentionLines::longTextsScrollInsteadOfSqueezing()
{
    LinesView view;
    view.resize(800, 400);
    view.show();
    view.setTrace(traceOf(2, 60), 0);
    AttentionLines *lines = view.lines();
    QTRY_VERIFY(lines->height() >= 60 * lines->fontMetrics().height());
    auto *scroll = view.findChild<QScrollArea *>();
    QVERIFY(scroll->verticalScrollBar()->maximum() > 0);
}

void TestAttentionLines::theWindowsTabFollowsThePinnedHead()
{
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    window.recompute();
    QVERIFY(waitUntilSettled(window));
    auto *tabs = window.findChild<QTabWidget *>("viewTabs");
    auto *view = window.findChild<LinesView *>("linesView");
    QCOMPARE(tabs->tabText(tabs->indexOf(view)), QString("Lines"));
    tabs->setCurrentWidget(view);
    QCOMPARE(view->lines()->queryLabels(), TraceReader::queryLabels(*window.trace(), 0));
    QCOMPARE(view->heads()->currentIndex(), 0); // all heads
    window.selection()->setPinnedHead(2);
    QCOMPARE(view->heads()->currentIndex(), 3);
    for (const auto &line : view->lines()->visibleLines())
        QCOMPARE(line.head, 2);
}

QTEST_MAIN(TestAttentionLines)
#include "tst_attentionlines.moc"
