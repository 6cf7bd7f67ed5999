// tst_dropoutmask: dropout's masks are a pure function of (seed, step, site, element), the same
// however a batch is split between threads, and keep about 1 - p of the elements.
#include "testmain.h"
#include "train/dropoutmask.h"

#include <QTest>

using namespace headlens;

class TestDropoutMask : public QObject
{
    Q_OBJECT

private slots:
    void keepsAboutOneMinusPAndScalesTheKept_data();
    void keepsAboutOneMinusPAndScalesTheKept();
    void aPartOfTheBatchDrawsWhatTheWholeBatchDrawsThere();
    void stepsSitesAndLayersDrawApart();
};

void TestDropoutMask::keepsAboutOneMinusPAndScalesTheKept_data()
{
    QTest::addColumn<float>("p");
    QTest::newRow("0.1") << 0.1f;
    QTest::newRow("0.5") << 0.5f;
    QTest::newRow("0.9") << 0.9f;
}

void TestDropoutMask::keepsAboutOneMinusPAndScalesTheKept()
{
    QFETCH(float, p);
    const DropoutMask mask(p, 42, 5);
    const MatrixT<double> f =
        mask.factors<double>(0, DropoutMask::Site::AttentionOutput, 400, 100, 4);
    const double kept = double((f.array() != 0.0).count()) / double(f.size());
    // 40,000 draws: the share's standard deviation is at most 0.0025.
    QVERIFY2(std::abs(kept - (1.0 - p)) < 0.015, std::to_string(kept).c_str());
    const double scale = 1.0 / double(1.0f - p);
    QVERIFY(((f.array() == 0.0) || (f.array() == scale)).all());
    // Inverted dropout keeps the expected value: the factors' mean is about 1.
    QVERIFY2(std::abs(f.mean() - 1.0) < 0.05 * scale, std::to_string(f.mean()).c_str());
}

void TestDropoutMask::aPartOfTheBatchDrawsWhatTheWholeBatchDrawsThere()
{
    // A batch of 5 sequences of (3, 4) each; the trainer's second part starts at sequence 2.
    const DropoutMask whole(0.3f, 9, 11);
    const DropoutMask part(0.3f, 9, 11, 2);
    const MatrixT<float> all =
        whole.factors<float>(1, DropoutMask::Site::AttentionWeights, 15, 4, 5);
    const MatrixT<float> mine =
        part.factors<float>(1, DropoutMask::Site::AttentionWeights, 9, 4, 3);
    QCOMPARE(mine, MatrixT<float>(all.bottomRows(9)));
}

void TestDropoutMask::stepsSitesAndLayersDrawApart()
{
    using Site = DropoutMask::Site;
    const auto draw = [](uint64_t step, int layer, Site site) {
        return DropoutMask(0.5f, 3, step).factors<float>(layer, site, 16, 16, 1);
    };
    const MatrixT<float> first = draw(0, 0, Site::AttentionWeights);
    QCOMPARE(draw(0, 0, Site::AttentionWeights), first); // no state: the same draw again
    QVERIFY(draw(1, 0, Site::AttentionWeights) != first);
    QVERIFY(draw(0, 1, Site::AttentionWeights) != first);
    QVERIFY(draw(0, 0, Site::AttentionOutput) != first);
    QVERIFY(draw(0, 0, Site::MlpOutput) != draw(0, 0, Site::AttentionOutput));
}

HEADLENS_TEST_APPLESS_MAIN(TestDropoutMask)
#include "tst_dropoutmask.moc"
