// tst_attentionlines: the Lines tab draws one line per weight of the heads chosen, from the
// query's label to the key's, in the head's colour with the weight as its opacity; hovering a
// token keeps only its lines; a long text grows the view (it scrolls) instead of squeezing rows.
#include "plot/headcolors.h"
#include "selection/selection.h"
#include "testmain.h"
#include "views/attentionlines.h"
#include "views/linesview.h"
#include "views/tracereader.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "wordstrace.h"

#include <QComboBox>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <optional>

using namespace headlens;
using headlens::test::selectionOf;
using headlens::test::shownTraceOf;
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
    void aLineRunsFromItsQueryToItsKey();
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

/// Every line as the view should draw it, over white, written here from the anchors and the
/// rule (the head's colour, the weight as opacity, 0.5 + 3 x weight pixels wide), not through
/// LinesPicture.
QImage expectedLines(const AttentionLines &lines, const QSize &size)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    for (const auto &line : lines.visibleLines()) {
        QColor color = HeadColors::color(line.head, false);
        color.setAlphaF(float(line.weight));
        painter.setPen(QPen(color, 0.5 + 3.0 * line.weight, Qt::SolidLine, Qt::RoundCap));
        painter.drawLine(lines.queryAnchor(line.query), lines.keyAnchor(line.key));
    }
    return image;
}

/// The distance from `p` to the segment from `a` to `b`.
double distanceToSegment(const QPointF &p, const QPointF &a, const QPointF &b)
{
    const QPointF ab = b - a;
    const double length = QPointF::dotProduct(ab, ab);
    const double t =
        length > 0.0 ? std::clamp(QPointF::dotProduct(p - a, ab) / length, 0.0, 1.0) : 0.0;
    const QPointF nearest = a + t * ab;
    return std::hypot(p.x() - nearest.x(), p.y() - nearest.y());
}

/// A point `t` of the way along the line from `a` to `b`.
QPointF along(const QPointF &a, const QPointF &b, double t)
{
    return a + t * (b - a);
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

// The line of a strong weight from query q to a key k at least two rows away has the head's
// colour a quarter and three quarters of the way from q's label to k's, and nothing is drawn a
// quarter and three quarters along the line from k's row on the left to q's on the right: a
// line drawn the wrong way round passed, its midpoint being the same either way. The points
// read are clear of every other line drawn, so no other line can stand in for this one: the
// lines of the query hovered (every line of a head crosses too many others; the picture of
// them all is compared whole in manyLinesArePaintedOnceThePoolDrewThem).
void TestAttentionLines::aLineRunsFromItsQueryToItsKey()
{
    const auto trace = traceOf(2, 6);
    AttentionLines lines;
    lines.setTrace(trace, 0);
    lines.resize(600, 600); // rows of about 90 pixels: lines to neighbouring keys stay apart
    const double clear = 6.0;
    struct Candidate
    {
        AttentionLines::Line line;
        QPointF from, to, swappedFrom, swappedTo;
    };
    std::optional<Candidate> found;
    for (int head = 0; head < trace->heads() && !found; ++head) {
        lines.setHeads({head});
        for (int query = 0; query < 6 && !found; ++query) {
            lines.setFocus(Side::Query, query);
            const auto drawn = lines.visibleLines();
            for (const auto &line : drawn) {
                if (line.query != query || std::abs(line.key - line.query) < 2 ||
                    line.weight < 0.25)
                    continue;
                const Candidate c{line, lines.queryAnchor(query), lines.keyAnchor(line.key),
                                  lines.queryAnchor(line.key), lines.keyAnchor(query)};
                bool apart = true;
                for (const auto &other : drawn)
                    for (double t : {0.25, 0.75}) {
                        const QPointF a = lines.queryAnchor(other.query),
                                      b = lines.keyAnchor(other.key);
                        const bool same = other.query == query && other.key == line.key;
                        apart =
                            apart &&
                            (same || distanceToSegment(along(c.from, c.to, t), a, b) > clear) &&
                            distanceToSegment(along(c.swappedFrom, c.swappedTo, t), a, b) > clear;
                    }
                if (apart) {
                    found = c;
                    break;
                }
            }
        }
    }
    QVERIFY2(found, "no strong line two rows long stands apart from the others");
    lines.setHeads({found->line.head});
    lines.setFocus(Side::Query, found->line.query);
    const QImage image = lines.grab().toImage();
    const QColor head = HeadColors::color(found->line.head, false);
    const double w = found->line.weight;
    const auto blended = [w](int channel) { return w * channel + (1 - w) * 255; };
    for (double t : {0.25, 0.75}) {
        const QPoint on = along(found->from, found->to, t).toPoint();
        double best = 1e9; // the line is a pixel or two wide, antialiased
        for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -2; dy <= 2; ++dy) {
                const QColor drawn = image.pixelColor(on + QPoint(dx, dy));
                best = std::min(best, std::abs(drawn.red() - blended(head.red())) +
                                          std::abs(drawn.green() - blended(head.green())) +
                                          std::abs(drawn.blue() - blended(head.blue())));
            }
        QVERIFY2(best <= 40.0, qPrintable(QString("head %1, query %2 to key %3, %4 of the way: "
                                                  "%5 from the head's colour")
                                              .arg(found->line.head + 1)
                                              .arg(found->line.query + 1)
                                              .arg(found->line.key + 1)
                                              .arg(t)
                                              .arg(best)));
        const QPoint off = along(found->swappedFrom, found->swappedTo, t).toPoint();
        for (int dx = -2; dx <= 2; ++dx)
            for (int dy = -2; dy <= 2; ++dy)
                QVERIFY2(image.pixel(off + QPoint(dx, dy)) == qRgb(255, 255, 255),
                         qPrintable(QString("something is drawn %1 of the way from key %2's row "
                                            "to query %3's: %4")
                                        .arg(t)
                                        .arg(found->line.key + 1)
                                        .arg(found->line.query + 1)
                                        .arg(image.pixelColor(off + QPoint(dx, dy)).name())));
    }
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
    const QImage image = lines.grab().toImage().convertToFormat(QImage::Format_RGB32);
    // Query 1's line is level with its row; every other line leaves from a row below it.
    const QPointF middle = (lines.queryAnchor(0) + lines.keyAnchor(0)) / 2.0;
    const QColor head = HeadColors::color(1, false);
    const QColor drawn = image.pixelColor(middle.toPoint());
    QCOMPARE_LE(std::abs(drawn.red() - head.red()) + std::abs(drawn.green() - head.green()) +
                    std::abs(drawn.blue() - head.blue()),
                12);
    // And the whole picture between the labels is every line where it belongs: one pixel read
    // passes a picture of lines drawn the wrong way round, or of another head.
    const QImage expected = expectedLines(lines, image.size());
    // Each channel within 8: the pool's picture is drawn on a transparent image first, and
    // 820 translucent lines round differently (by 6 at most here).
    int differ = 0;
    QString first;
    for (int y = 0; y < image.height(); ++y)
        for (int x = int(lines.queryAnchor(0).x()) + 2; x < int(lines.keyAnchor(0).x()) - 2; ++x) {
            const QRgb a = image.pixel(x, y), b = expected.pixel(x, y);
            if (std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)),
                          std::abs(qBlue(a) - qBlue(b))}) <= 8)
                continue;
            if (differ++ == 0)
                first = QString("(%1, %2) is %3, expected %4")
                            .arg(x)
                            .arg(y)
                            .arg(QColor(a).name(), QColor(b).name());
        }
    QVERIFY2(differ == 0, qPrintable(QString("%1 pixels differ; %2").arg(differ).arg(first)));
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
    QCOMPARE(view->lines()->queryLabels(), TraceReader::queryLabels(*shownTraceOf(window), 0));
    QCOMPARE(view->heads()->currentIndex(), 0); // all heads
    selectionOf(window)->setPinnedHead(2);
    QCOMPARE(view->heads()->currentIndex(), 3);
    for (const auto &line : view->lines()->visibleLines())
        QCOMPARE(line.head, 2);
}

HEADLENS_TEST_MAIN(TestAttentionLines)
#include "tst_attentionlines.moc"
