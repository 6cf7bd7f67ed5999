// Tests of topPredictions: five logits worked by hand, ties, k past the vocabulary, huge logits.
#include "approx.h"

#include "model/tokenpredictions.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;

namespace {

std::string labelOf(int id)
{
    return "t" + std::to_string(id);
}

Vector logitsOf(std::vector<float> values)
{
    return Eigen::Map<const Vector>(values.data(), Eigen::Index(values.size()));
}

} // namespace

class TestTokenPredictions : public QObject
{
    Q_OBJECT

private slots:
    void handWorkedExample();
    void countBeyondTheVocabulary_data();
    void countBeyondTheVocabulary();
    void hugeLogitsDoNotOverflow();
};

void TestTokenPredictions::handWorkedExample()
{
    // logits (1, 3, 2, 3, 0): max 3, so the terms are e^-2, 1, e^-1, 1, e^-3 and
    // sum = 2 + e^-1 + e^-2 + e^-3 = 2 + 0.3678794412 + 0.1353352832 + 0.0497870684
    //     = 2.5530017928. Ids 1 and 3 tie at 1 / 2.5530017928 = 0.3916957688 (the smaller id
    // first); then id 2 at e^-1 / 2.5530017928 = 0.1440968205.
    const std::vector<TokenPrediction> top = topPredictions(logitsOf({1, 3, 2, 3, 0}), 3, labelOf);
    QCOMPARE(int(top.size()), 3);
    const int ids[] = {1, 3, 2};
    const double probabilities[] = {0.3916957688, 0.3916957688, 0.1440968205};
    const float logits[] = {3, 3, 2};
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(top[size_t(i)].tokenId, ids[i]);
        QCOMPARE(top[size_t(i)].label, labelOf(ids[i]));
        QCOMPARE(top[size_t(i)].logit, logits[i]);
        HL_COMPARE_NEAR(top[size_t(i)].probability, probabilities[i], 1e-9, 1e-12);
    }
}

void TestTokenPredictions::countBeyondTheVocabulary_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("expected");
    QTest::newRow("none asked") << 0 << 0;
    QTest::newRow("negative") << -2 << 0;
    QTest::newRow("one") << 1 << 1;
    QTest::newRow("the whole vocabulary") << 5 << 5;
    QTest::newRow("more than the vocabulary") << 50 << 5;
}

void TestTokenPredictions::countBeyondTheVocabulary()
{
    QFETCH(int, count);
    QFETCH(int, expected);
    const std::vector<TokenPrediction> top =
        topPredictions(logitsOf({1, 3, 2, 3, 0}), count, labelOf);
    QCOMPARE(int(top.size()), expected);
    double sum = 0.0;
    for (size_t i = 0; i < top.size(); ++i) {
        sum += top[i].probability;
        if (i > 0)
            QVERIFY(top[i - 1].probability >= top[i].probability);
    }
    if (expected == 5) // every token listed: the probabilities are the whole distribution
        HL_COMPARE_NEAR(sum, 1.0, 1e-12, 1e-12);
}

void TestTokenPredictions::hugeLogitsDoNotOverflow()
{
    // exp(1000) overflows a double; with the max subtracted the pair is 1 / (1 + e^-1) and
    // e^-1 / (1 + e^-1) = 0.7310585786 and 0.2689414214.
    const std::vector<TokenPrediction> top = topPredictions(logitsOf({999, 1000}), 2, labelOf);
    QCOMPARE(top.at(0).tokenId, 1);
    HL_COMPARE_NEAR(top.at(0).probability, 0.7310585786, 1e-9, 1e-12);
    HL_COMPARE_NEAR(top.at(1).probability, 0.2689414214, 1e-9, 1e-12);
}

HEADLENS_TEST_APPLESS_MAIN(TestTokenPredictions)
#include "tst_tokenpredictions.moc"
