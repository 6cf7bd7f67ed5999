// Tests of LineEnvelope: a long line reduced to each bucket's extremes, at their positions.
#include "plot/lineenvelope.h"
#include "testmain.h"

#include <QTest>

#include <cmath>
#include <vector>

using namespace headlens;

namespace {

std::vector<std::pair<double, double>> pointsOf(const QCPGraphDataContainer &container)
{
    std::vector<std::pair<double, double>> points;
    for (auto it = container.constBegin(); it != container.constEnd(); ++it)
        points.emplace_back(it->key, it->value);
    return points;
}

} // namespace

class TestLineEnvelope : public QObject
{
    Q_OBJECT

private slots:
    void aShortLineKeepsEveryPoint();
    void eachBucketKeepsItsLowestAndHighestInOrder();
    void aSingleSpikeSurvivesAtItsPosition();
};

void TestLineEnvelope::aShortLineKeepsEveryPoint()
{
    const std::vector<double> values = {0.5, NAN, 0.25, 1.0, 0.0};
    const auto points = pointsOf(*LineEnvelope::of(values.data(), 5, 4));
    const std::vector<std::pair<double, double>> expected = {
        {0.0, 0.5}, {2.0, 0.25}, {3.0, 1.0}, {4.0, 0.0}}; // the NaN (a masked row) left out
    QCOMPARE(points, expected);
}

/// 12 values in 3 buckets of 4: each gives its lowest and highest, in the order they occur.
void TestLineEnvelope::eachBucketKeepsItsLowestAndHighestInOrder()
{
    const std::vector<double> values = {3, 9, 1, 4, /**/ 7, 7, 7, 7, /**/ 2, NAN, 8, 5};
    const auto points = pointsOf(*LineEnvelope::of(values.data(), 12, 3));
    const std::vector<std::pair<double, double>> expected = {
        {1.0, 9.0},
        {2.0, 1.0}, // highest at 1 comes before lowest at 2
        {4.0, 7.0}, // a flat bucket: one point
        {8.0, 2.0},
        {10.0, 8.0}};
    QCOMPARE(points, expected);
}

/// What the envelope is for: a one-token spike in 32,768 positions (an attention sink's share
/// at one query) stays in the 4,096 points drawn, at its own position and height.
void TestLineEnvelope::aSingleSpikeSurvivesAtItsPosition()
{
    std::vector<double> values(32768);
    for (size_t i = 0; i < values.size(); ++i)
        values[i] = 0.1 + 0.01 * std::sin(double(i) / 50.0);
    values[20001] = 0.9;
    const auto container = LineEnvelope::of(values.data(), int64_t(values.size()), 2048);
    const auto points = pointsOf(*container);
    QVERIFY(points.size() <= 4096);
    QVERIFY(points.size() > 2048);
    bool spike = false;
    double previous = -1;
    for (const auto &[key, value] : points) {
        QVERIFY(key > previous); // sorted, each position once
        previous = key;
        QCOMPARE(value, values[size_t(key)]);
        spike = spike || (key == 20001.0 && value == 0.9);
    }
    QVERIFY(spike);
}

HEADLENS_TEST_MAIN(TestLineEnvelope)
#include "tst_lineenvelope.moc"
