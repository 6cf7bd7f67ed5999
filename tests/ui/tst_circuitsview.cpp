// Tests the Circuits tab: the head chosen is read off the UI thread only while the tab is shown;
// its QK and OV maps are the core's on the text's tokens, each cell in its colour; the chart
// holds both circuits' singular values; the notes say what grouped-query attention and RoPE
// mean for the head; a toy model gets a sentence instead.
#include "lens/circuitsview.h"
#include "lens/lensrunner.h"
#include "model/openedmodel.h"
#include "model/toyopenedmodel.h"
#include "session/session.h"
#include "train/trainer.h"
#include "views/differenceheatmap.h"

#include "drawnheatmap.h"
#include "openedrun.h"
#include "testdata.h"
#include "testmain.h"

#include <QComboBox>
#include <QTest>

#include <algorithm>

using namespace headlens;

namespace {

/// Chooses item `data` of `box` as a click would.
void chooseItem(QComboBox &box, int data)
{
    box.setCurrentIndex(box.findData(data));
    emit box.activated(box.currentIndex());
}

/// The circuits the core reads for the head, on the tokens the window reads them on.
HeadCircuits coreCircuits(const ModelRun &run, int layer, int head)
{
    const OpenedModel &model = *run.source.model;
    return model.circuits(layer, head, Session::circuitTokens(model, run));
}

std::vector<double> graphValues(QCustomPlot &plot, int graph)
{
    std::vector<double> values;
    for (auto point = plot.graph(graph)->data()->constBegin();
         point != plot.graph(graph)->data()->constEnd(); ++point)
        values.push_back(point->value);
    return values;
}

} // namespace

class TestCircuitsView : public QObject
{
    Q_OBJECT

private slots:
    void drawsTheChosenHeadsCircuitsOnTheTextsTokens();
    void aHeadChosenWhileHiddenIsReadWhenShown();
    void groupedQueryAttentionAndRopeAreNamed();
    void toyModelsGetASentence();
};

void TestCircuitsView::drawsTheChosenHeadsCircuitsOnTheTextsTokens()
{
    // A token twice: the maps have one row and column per distinct token, in the text's order.
    const auto run = test::openedRun(test::tinyGpt2(), "the cat sat on the cat");
    CircuitsView view;
    view.resize(1400, 800);
    view.setRun(run);
    QVERIFY(!view.runner()->isRunning()); // hidden: nothing read
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY_WITH_TIMEOUT(view.circuits() != nullptr, 20000);
    QCOMPARE(view.circuits()->layer, 0); // the layer traced, head 1
    QCOMPARE(view.circuits()->head, 0);

    chooseItem(*view.layerChoice(), 1);
    chooseItem(*view.headChoice(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(
        view.circuits() && view.circuits()->layer == 1 && view.circuits()->head == 1, 20000);
    const HeadCircuits expected = coreCircuits(*run, 1, 1);
    QCOMPARE(view.circuits()->tokens, expected.tokens);
    QStringList distinctTokens;
    std::vector<int> seen;
    for (size_t i = 0; i < run->tokenIds.size(); ++i) {
        if (std::find(seen.begin(), seen.end(), run->tokenIds[i]) != seen.end())
            continue;
        seen.push_back(run->tokenIds[i]);
        distinctTokens << QStringLiteral("[%1]").arg(QString::fromStdString(run->tokens[i]));
    }
    QVERIFY(distinctTokens.size() < int(run->tokenIds.size())); // the text repeats a token
    QCOMPARE(view.tokensShown(), distinctTokens);
    const int distinct = int(distinctTokens.size());
    const RowMatrix qk = expected.circuit.qkTokens.topLeftCorner(distinct, distinct);
    const RowMatrix ov = expected.circuit.ovTokens.topLeftCorner(distinct, distinct);
    QVERIFY(view.qkShown() == qk);
    QVERIFY(view.ovShown() == ov);
    // Diverging, white at 0, on ±max|score| of the map.
    for (auto [plot, values] : {std::pair{view.qkPlot(), qk}, std::pair{view.ovPlot(), ov}}) {
        QVERIFY(plot->isVisible());
        const double largest = double(values.cwiseAbs().maxCoeff());
        const QByteArray mismatch = test::pictureMismatch(
            *plot, values, DifferenceHeatmap::gradient(), {-largest, largest});
        QVERIFY2(mismatch.isEmpty(), mismatch.constData());
    }
    QCOMPARE(view.qkPlot()->title(), QStringLiteral("QK of head 1.2"));
    // The chart: QK's and OV's singular values by rank, d_k of each.
    QCustomPlot &chart = *view.singularValuesPlot();
    QVERIFY(chart.isVisible());
    QCOMPARE(chart.graphCount(), 2);
    QCOMPARE(graphValues(chart, 0), expected.circuit.qkSingularValues);
    QCOMPARE(graphValues(chart, 1), expected.circuit.ovSingularValues);
    QVERIFY2(view.notes().contains(QString::number(expected.circuit.copyingScore, 'f', 3)),
             qPrintable(view.notes()));
    QVERIFY2(!view.notes().contains("RoPE") && !view.notes().contains("shared by"),
             qPrintable(view.notes())); // GPT-2: learned positions, a K/V head per head
    // The token lists: the QK pair scored highest over every token read comes first.
    Eigen::Index row = 0, col = 0;
    expected.circuit.qkTokens.maxCoeff(&row, &col);
    const QString best = QStringLiteral("[%1]→[%2]")
                             .arg(QString::fromStdString(expected.labels[size_t(row)]),
                                  QString::fromStdString(expected.labels[size_t(col)]))
                             .toHtmlEscaped();
    const QString lists = view.tokenLists();
    QVERIFY2(lists.contains("highest: " + best), qPrintable(lists));
}

void TestCircuitsView::aHeadChosenWhileHiddenIsReadWhenShown()
{
    const auto run = test::openedRun(test::tinyGpt2(), "the cat sat");
    CircuitsView view;
    view.resize(1200, 700);
    view.setRun(run);
    view.chooseHead(1, 0);
    QVERIFY(!view.runner()->isRunning());
    QVERIFY(view.circuits() == nullptr);
    view.show();
    QTRY_VERIFY_WITH_TIMEOUT(view.circuits() != nullptr, 20000);
    QCOMPARE(view.circuits()->layer, 1);
    QCOMPARE(view.circuits()->head, 0);
    QVERIFY(view.circuits()->circuit.qkTokens == coreCircuits(*run, 1, 0).circuit.qkTokens);
}

void TestCircuitsView::groupedQueryAttentionAndRopeAreNamed()
{
    // Llama with 4 query heads over 2 K/V heads: head 4 reads K/V head 2 with head 3.
    const auto run = test::openedRun(QStringLiteral(HEADLENS_TEST_DATA "/llama/llama_gqa"),
                                     "the cat sat on the mat");
    CircuitsView view;
    view.resize(1200, 700);
    view.setRun(run);
    view.show();
    view.chooseHead(0, 3);
    QTRY_VERIFY_WITH_TIMEOUT(view.circuits() && view.circuits()->head == 3, 20000);
    QCOMPARE(view.circuits()->keyValueHead, 1);
    QVERIFY2(view.notes().contains("key/value head 2, shared by 2 query heads"),
             qPrintable(view.notes()));
    QVERIFY2(view.notes().contains("RoPE"), qPrintable(view.notes()));
    const int shown = int(view.tokensShown().size());
    QVERIFY(shown > 1);
    QVERIFY(view.ovShown() ==
            RowMatrix(coreCircuits(*run, 0, 3).circuit.ovTokens.topLeftCorner(shown, shown)));
}

void TestCircuitsView::toyModelsGetASentence()
{
    const auto model = std::make_shared<const ToyOpenedModel>(
        std::make_shared<const TrainedModel>(
            Trainer(TrainingSettings::defaultsFor(TaskKind::Induction)).trainedModel()),
        "");
    auto run = model->run(model->encode("abcdabcd"), 0, {});
    run->source.model = model;
    CircuitsView view;
    view.resize(1200, 600);
    view.setRun(run);
    view.show();
    QTRY_VERIFY_WITH_TIMEOUT(!view.runner()->isRunning(), 20000);
    QVERIFY(view.circuits() == nullptr);
    QVERIFY2(view.status().contains("token embeddings and output head"), qPrintable(view.status()));
    QVERIFY(!view.qkPlot()->isVisible());
    QVERIFY(!view.singularValuesPlot()->isVisible());
}

HEADLENS_TEST_MAIN(TestCircuitsView)
#include "tst_circuitsview.moc"
