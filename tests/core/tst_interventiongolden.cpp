// Tests head importance and patching maps of the tiny GPT-2 and Llama against float64 NumPy.
#include "approx.h"
#include "errorof.h"
#include "npzgolden.h"

#include "attention/attentionforward.h"
#include "io/npzarchive.h"
#include "model/transformerranking.h"
#include "testmain.h"

#include <QTest>

#include <algorithm>

#include <map>

using namespace headlens;

namespace {

/// interventions.npz of scripts/make_intervention_goldens.py.
std::map<std::string, Tensor> goldenOf(const std::string &folder)
{
    return test::npzGolden(folder + "/interventions.npz");
}

using test::idsOf;

RowMatrix tableOf(const Tensor &t)
{
    return t.matrix({});
}

} // namespace

class TestInterventionGolden : public QObject
{
    Q_OBJECT

private slots:
    void importanceMatchesNumPy_data();
    void importanceMatchesNumPy();
    void patchingMatchesNumPy_data() { importanceMatchesNumPy_data(); }
    void patchingMatchesNumPy();
    void breakingIsRestoringTheOtherWay_data() { importanceMatchesNumPy_data(); }
    void breakingIsRestoringTheOtherWay();
    void lastLayerPositionsAreTheLastTokens_data() { importanceMatchesNumPy_data(); }
    void lastLayerPositionsAreTheLastTokens();
    void ablatedRunMatchesTheRankingsPass();
    void refusals();
};

void TestInterventionGolden::importanceMatchesNumPy_data()
{
    QTest::addColumn<QString>("folder");
    QTest::newRow("gpt2 tiny") << QStringLiteral(HEADLENS_TEST_DATA "/gpt2/tiny");
    QTest::newRow("llama gqa") << QStringLiteral(HEADLENS_TEST_DATA "/llama/llama_gqa");
}

void TestInterventionGolden::importanceMatchesNumPy()
{
    QFETCH(QString, folder);
    const TransformerModel model = TransformerModel::open(folder.toStdString());
    auto golden = goldenOf(folder.toStdString());
    int calls = 0;
    const HeadImportance importance =
        TransformerRanking(model).importance(idsOf(golden["clean"]), {}, [&calls](double) {
            ++calls;
            return true;
        });
    HL_COMPARE_NEAR(importance.cleanLoss, golden["clean_loss"].data()[0], 0.0, 1e-4);
    const RowMatrix expected = tableOf(golden["importance"]);
    QCOMPARE(importance.lossIncrease.rows(), expected.rows());
    QCOMPARE(importance.lossIncrease.cols(), expected.cols());
    HL_COMPARE_NEAR((importance.lossIncrease - expected).cwiseAbs().maxCoeff(), 0.0, 0.0, 1e-4);
    QVERIFY(expected.cwiseAbs().maxCoeff() > 0.05f); // the heads matter: the check can fail
    QVERIFY(calls >= model.spec().layers * 2);
    QVERIFY(importance.loss.find("8 next tokens") != std::string::npos);
}

void TestInterventionGolden::patchingMatchesNumPy()
{
    QFETCH(QString, folder);
    const TransformerModel model = TransformerModel::open(folder.toStdString());
    auto golden = goldenOf(folder.toStdString());
    const std::vector<int> answers = idsOf(golden["answer"]);
    const PatchingMap map = TransformerRanking(model).patching(
        idsOf(golden["clean"]), idsOf(golden["corrupt"]), {answers[0], answers[1]});
    HL_COMPARE_NEAR(map.cleanMetric, golden["metrics"].data()[0], 0.0, 1e-4);
    HL_COMPARE_NEAR(map.corruptMetric, golden["metrics"].data()[1], 0.0, 1e-4);
    const RowMatrix expected = tableOf(golden["patching"]);
    HL_COMPARE_NEAR((map.restored - expected).cwiseAbs().maxCoeff(), 0.0, 0.0, 1e-4);
    QCOMPARE(map.position, 8);
}

// Patching the corrupted run's outputs into the clean run of (corrupt, clean) is patching the
// clean outputs into the corrupted run of (clean, corrupt) seen from the other side: the share
// it removes from one is the share it restores to the other, so NumPy's map again.
void TestInterventionGolden::breakingIsRestoringTheOtherWay()
{
    QFETCH(QString, folder);
    const TransformerModel model = TransformerModel::open(folder.toStdString());
    auto golden = goldenOf(folder.toStdString());
    const std::vector<int> answers = idsOf(golden["answer"]);
    const PatchingMap map = TransformerRanking(model).patching(
        idsOf(golden["corrupt"]), idsOf(golden["clean"]),
        {answers[0], answers[1], PatchDirection::CorruptIntoClean});
    QVERIFY(map.direction == PatchDirection::CorruptIntoClean);
    HL_COMPARE_NEAR(map.cleanMetric, golden["metrics"].data()[1], 0.0, 1e-4);
    const RowMatrix expected = tableOf(golden["patching"]);
    HL_COMPARE_NEAR((map.restored - expected).cwiseAbs().maxCoeff(), 0.0, 0.0, 1e-4);
}

// A last-layer head reaches the last position's logits only through its own output there (a
// causal model's MLP and norms act on each row alone): patched at the last position it moves the
// metric as much as patched everywhere, at any other position not at all.
void TestInterventionGolden::lastLayerPositionsAreTheLastTokens()
{
    QFETCH(QString, folder);
    const TransformerModel model = TransformerModel::open(folder.toStdString());
    auto golden = goldenOf(folder.toStdString());
    const std::vector<int> answers = idsOf(golden["answer"]);
    const std::vector<int> clean = idsOf(golden["clean"]), corrupt = idsOf(golden["corrupt"]);
    const int last = model.spec().layers - 1;
    const TransformerRanking ranking(model);
    for (int head = 0; head < model.spec().heads; ++head) {
        const PatchingMap map = ranking.patching(
            clean, corrupt, {answers[0], answers[1], PatchDirection::CleanIntoCorrupt, last, head});
        QCOMPARE(map.positionsLayer, last);
        QCOMPARE(map.positionsHead, head);
        QCOMPARE(map.byPosition.size(), clean.size());
        for (size_t p = 0; p + 1 < clean.size(); ++p)
            HL_COMPARE_NEAR(map.byPosition[p], 0.0, 0.0, 1e-5);
        HL_COMPARE_NEAR(map.byPosition.back(), map.restored(last, head), 0.0, 1e-5);
    }
    // Asked for no head, the positions are the strongest head's.
    const PatchingMap strongest = ranking.patching(clean, corrupt, {answers[0], answers[1]});
    const float top = strongest.restored.cwiseAbs().maxCoeff();
    QCOMPARE(std::abs(strongest.restored(strongest.positionsLayer, strongest.positionsHead)), top);
    QVERIFY(std::any_of(strongest.byPosition.begin(), strongest.byPosition.end(),
                        [](float v) { return std::abs(v) > 1e-3f; }));
}

void TestInterventionGolden::ablatedRunMatchesTheRankingsPass()
{
    // The ordinary run with a head ablated (what the window shows) and the ranking's pass from
    // that layer give the same last-position logits.
    const TransformerModel model = TransformerModel::open(HEADLENS_TEST_DATA "/gpt2/tiny");
    const std::vector<int> ids{12, 40, 7, 99, 31};
    TransformerRunOptions options;
    options.interventions = HeadInterventions::ablating(1, 0);
    options.keepResidualStream = true;
    const TransformerRun ablated = model.run(ids, options);
    const TransformerRun clean = model.run(ids);
    const int64_t n = 5, d = model.spec().dModel;
    const RowMatrix entering = ConstRowMatrixMap(ablated.residualStream.data() + n * d, n, d);
    const RowMatrix final = model.continueFrom(1, entering, 1, options.interventions);
    const RowMatrix logits = model.logitsOf(final.bottomRows(1));
    HL_COMPARE_NEAR((logits - ablated.logits.matrix({})).cwiseAbs().maxCoeff(), 0.0, 0.0, 1e-5);
    QVERIFY((clean.logits.matrix({}) - ablated.logits.matrix({})).cwiseAbs().maxCoeff() > 1e-3f);
}

void TestInterventionGolden::refusals()
{
    const TransformerModel model = TransformerModel::open(HEADLENS_TEST_DATA "/gpt2/tiny");
    const TransformerRanking ranking(model);
    const QString lengths = test::errorOf([&] {
        ranking.patching(std::vector<int>{1, 2, 3}, std::vector<int>{1, 2}, {5, 6});
    });
    QVERIFY2(lengths.contains("3 tokens") && lengths.contains("corrupted text 2"),
             qPrintable(lengths));
    const QString one = test::errorOf([&] { ranking.importance(std::vector<int>{5}, {}); });
    QVERIFY2(one.contains("at least two tokens"), qPrintable(one));
    const QString same = test::errorOf([&] {
        ranking.patching(std::vector<int>{1, 2, 3}, std::vector<int>{1, 2, 3}, {5, 6});
    });
    QVERIFY2(same.contains("they differ by 0.000, 0.693 short of the ln 2 = 0.693 a patching map "
                           "needs"),
             qPrintable(same));
    const QString head = test::errorOf([&] {
        ranking.patching(std::vector<int>{1, 2, 3}, std::vector<int>{1, 2, 4},
                         {5, 6, PatchDirection::CleanIntoCorrupt, 0, 9});
    });
    QVERIFY2(head.contains("Head 0.10 is not in the model"), qPrintable(head));
    bool cancelled = false;
    try {
        ranking.importance(std::vector<int>{1, 2, 3}, {}, [](double f) { return f < 0.3; });
    } catch (const Cancelled &) {
        cancelled = true;
    }
    QVERIFY(cancelled);
}

HEADLENS_TEST_APPLESS_MAIN(TestInterventionGolden)
#include "tst_interventiongolden.moc"
