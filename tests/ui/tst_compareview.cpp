// tst_compareview: the Compare tab against two runs of the core's Session made apart from it.
#include "compare/compareview.h"
#include "compare/modeldivergencepanel.h"
#include "compare/predictionspair.h"
#include "models/modelcontroller.h"
#include "runner/jobbuilder.h"
#include "runner/tracerunner.h"
#include "session/session.h"
#include "text/tokenizer.h"
#include "views/differenceheatmap.h"
#include "window/filecommands.h"
#include "window/modelwiring.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include "approx.h"
#include "drawnheatmap.h"
#include "rowdivergence.h"
#include "testmain.h"

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace headlens;
using headlens::test::compareViewOf;
using headlens::test::filesOf;
using headlens::test::modelsOf;
using headlens::test::runnerOf;
using headlens::test::shownTraceOf;
using headlens::test::waitUntilSettled;
using headlens::test::workspaceOf;

namespace {

const QString kTextA = "The tired robot dropped the heavy gear";
const QString kTextB = "The tired robot lifted the heavy gear"; // one word changed, 7 words

} // namespace

class TestCompareView : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> window;

    CompareView *view() const { return compareViewOf(*window); }

    // Text B typed and Compare pressed, as a person would; waits for the comparison of `textB`.
    void compare(const QString &textB)
    {
        window->showCompare();
        auto *box = view()->findChild<QLineEdit *>("compareText");
        QVERIFY(box);
        box->clear();
        QTest::keyClicks(box, textB);
        QTest::mouseClick(view()->findChild<QPushButton *>("compareButton"), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return !runnerOf(*window)->isBusy() && view()->runs() &&
                       view()->runs()->request.text == textB.toStdString() &&
                       view()->runs()->a == shownTraceOf(*window);
            },
            20000));
    }

    // The window's job with `text`, run by a Session of the test's own.
    std::shared_ptr<const Trace> independentRun(const QString &text)
    {
        WorkspaceState state = workspaceOf(*window)->state();
        state.text = text;
        const std::optional<TraceJob> job =
            JobBuilder::jobFor(state, modelsOf(*window)->controller()->source());
        if (!job)
            return nullptr;
        Session session;
        return session.run(*job).trace;
    }

    // Each head's difference plot holds A's weights minus B's, from runs made apart from the
    // window, titled with their max |A - B| and mean Jensen-Shannon divergence.
    void checkDifferences(const QString &textA, const QString &textB)
    {
        const auto a = independentRun(textA), b = independentRun(textB);
        QVERIFY(a && b);
        const Tensor &wa = a->tensor(keys::attentionWeights),
                     &wb = b->tensor(keys::attentionWeights);
        QCOMPARE(wa.shape().size(2), wb.shape().size(2)); // the texts have the same token count
        const int heads = int(wa.shape().size(1));
        QCOMPARE(view()->rowCount(), heads);
        double largest = 0.0;
        for (int head = 0; head < heads; ++head) {
            DifferenceHeatmap *plot = view()->plotDifference(head);
            QVERIFY(plot->isVisibleTo(view()));
            const RowMatrix drawn = test::drawnCells(*plot);
            const ConstRowMatrixMap pa = wa.matrix({0, head}), pb = wb.matrix({0, head});
            QCOMPARE(drawn.rows(), pa.rows());
            QCOMPARE(drawn.cols(), pa.cols());
            double headLargest = 0.0, divergence = 0.0;
            for (Eigen::Index i = 0; i < pa.rows(); ++i) {
                divergence += test::rowJensenShannon(pa, pb, i) / double(pa.rows());
                for (Eigen::Index j = 0; j < pa.cols(); ++j) {
                    const double expected = double(pa(i, j)) - double(pb(i, j));
                    headLargest = std::max(headLargest, std::abs(expected));
                    if (std::isnan(drawn(i, j))) {
                        QCOMPARE(pa(i, j), 0.0f); // masked: no weight in either run
                        continue;
                    }
                    HL_COMPARE_NEAR(drawn(i, j), expected, 1e-5, 1e-6);
                }
            }
            largest = std::max(largest, headLargest);
            QVERIFY(headLargest > 0.0); // the changed word moves every head's weights
            QVERIFY2(plot->title().contains(QString::number(headLargest, 'f', 3)),
                     qPrintable(plot->title()));
            QVERIFY2(plot->title().contains("JS " + QString::number(divergence, 'f', 3)),
                     qPrintable(plot->title()));
        }
        // One range for every head, symmetric about 0, and 0 drawn white.
        QCPColorMap *map = test::colorMapOf(*view()->plotDifference(0));
        HL_COMPARE_NEAR(map->dataRange().upper, largest, 1e-5, 1e-7);
        HL_COMPARE_NEAR(map->dataRange().lower, -largest, 1e-5, 1e-7);
        const QColor zero(map->gradient().color(0.0, map->dataRange()));
        QVERIFY2(std::min({zero.red(), zero.green(), zero.blue()}) >= 250, qPrintable(zero.name()));
    }

private slots:
    void initTestCase() { test::keepSettingsIn(m_dir.path()); }
    void init()
    {
        window = test::settledWindow(kTextA);
        QVERIFY(window);
    }
    void cleanup() { window.reset(); }

    // The built-in layer; then A edited on the left while the tab shows: B runs again with it.
    void builtInDifferenceIsAMinusB()
    {
        compare(kTextB);
        if (QTest::currentTestFailed())
            return;
        checkDifferences(kTextA, kTextB);
        if (QTest::currentTestFailed())
            return;
        const QString editedA = "The tired robot dropped the light gear";
        workspaceOf(*window)->setText(editedA);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return !runnerOf(*window)->isBusy() && view()->runs() &&
                       view()->runs()->a == shownTraceOf(*window);
            },
            20000));
        checkDifferences(editedA, kTextB);
    }

    // A text B set from outside (the command line, a workspace) reads from its start: the box
    // showed only the tail of a text longer than it ("…heavy gear because it broke").
    void textBShowsItsStart()
    {
        window->showCompare();
        const QString text = QString(kTextB).repeated(4);
        view()->setTextB(text);
        auto *box = view()->findChild<QLineEdit *>("compareText");
        QVERIFY(box);
        QCOMPARE(box->text(), text);
        QCOMPARE(box->cursorPosition(), 0);
    }

    // Other token counts: A and B drawn, no difference, and the reason given.
    void differentLengthsSayWhy()
    {
        compare("The robot dropped the gear");
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(view()->message().contains("A has 7 tokens and B has 5"),
                 qPrintable(view()->message()));
        QVERIFY(view()->rowCount() > 0);
        for (int head = 0; head < view()->rowCount(); ++head) {
            QVERIFY(!view()->plotDifference(head)->isVisibleTo(view()));
            QCOMPARE(view()->plotA(head)->rowCount(), 7);
            QCOMPARE(view()->plotB(head)->rowCount(), 5);
        }
    }

    // B is A's own text with the causal mask switched on, picked from the "B is" list by keys:
    // B hides every later key, A (no mask) does not, and the text box is not B's.
    void settingChangeFromTheList()
    {
        window->showCompare();
        auto *list = view()->findChild<QComboBox *>("compareChange");
        QVERIFY(list);
        const int causal = list->findData("causal");
        QVERIFY(causal > 0);
        list->setCurrentIndex(causal - 1);
        list->setFocus();
        QTest::keyClick(list, Qt::Key_Down);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return !runnerOf(*window)->isBusy() && view()->runs() &&
                       view()->runs()->request.change == ComparedChange::CausalFlip &&
                       view()->runs()->a == shownTraceOf(*window);
            },
            20000));
        QVERIFY(!view()->findChild<QLineEdit *>("compareText")->isEnabled());
        QVERIFY2(view()->message().contains("the causal mask on"), qPrintable(view()->message()));
        for (int head = 0; head < view()->rowCount(); ++head) {
            const RowMatrix a = test::drawnCells(*view()->plotA(head));
            const RowMatrix b = test::drawnCells(*view()->plotB(head));
            const RowMatrix d = test::drawnCells(*view()->plotDifference(head));
            QCOMPARE(b.rows(), 7);
            for (Eigen::Index i = 0; i < b.rows(); ++i) {
                HL_COMPARE_NEAR(b.row(i).array().isNaN().select(0.0f, b.row(i).array()).sum(), 1.0,
                                1e-5, 1e-6);
                for (Eigen::Index j = 0; j < b.cols(); ++j) {
                    QCOMPARE(std::isnan(b(i, j)), j > i); // masked, drawn as masked
                    const double expected = double(a(i, j)) - (j > i ? 0.0 : double(b(i, j)));
                    HL_COMPARE_NEAR(d(i, j), expected, 1e-5, 1e-6);
                }
            }
        }
    }

    // The tiny GPT-2: the traced layer's heads of both texts.
    void gpt2TracedLayer()
    {
        QVERIFY(filesOf(*window)->openModel(QString(HEADLENS_TEST_DATA) + "/gpt2/tiny"));
        QTRY_VERIFY_WITH_TIMEOUT(modelsOf(*window)->controller()->run(), 20000);
        QVERIFY(waitUntilSettled(*window));
        compare(kTextB);
        if (QTest::currentTestFailed())
            return;
        checkDifferences(workspaceOf(*window)->state().text, kTextB);
    }

    void anotherModelMapsEveryHead_data()
    {
        QTest::addColumn<QString>("fileA");
        QTest::addColumn<QString>("fileB");
        QTest::newRow("tiny Llama, Q4_0 against F32 (2 layers)") << "llama_tiny_f32.gguf"
                                                                 << "llama_tiny_q4_0.gguf";
        QTest::newRow("wide Llama, Q4_K against F16 (1 layer)") << "llama_wide_f16.gguf"
                                                                << "llama_wide_q4_k.gguf";
    }

    // B another model: a quantized copy against the file it was made from. The map holds each
    // head's mean Jensen-Shannon divergence of every layer, as runs made apart from the window
    // give it; a click on the last head draws its layer's A, B and A - B and scrolls to them;
    // the two models' next tokens are listed side by side.
    void anotherModelMapsEveryHead()
    {
        QFETCH(QString, fileA);
        QFETCH(QString, fileB);
        const QString gguf = QString(HEADLENS_TEST_DATA) + "/gguf/";
        QVERIFY(filesOf(*window)->openModel(gguf + fileA));
        QTRY_VERIFY_WITH_TIMEOUT(modelsOf(*window)->controller()->run(), 20000);
        QVERIFY(waitUntilSettled(*window));
        view()->setChange(ComparedChange::Model);
        compare(gguf + fileB);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(view()->runs()->modelA && view()->runs()->modelB);

        const auto runOf = [&](const QString &path) {
            TraceJob job;
            job.model.path = path.toStdString();
            job.texts = {workspaceOf(*window)->state().text.toStdString()};
            return Session().run(job).model;
        };
        const auto a = runOf(gguf + fileA);
        const auto b = runOf(gguf + fileB);
        ModelDivergencePanel *panel = view()->modelPanel();
        QVERIFY(panel->isVisibleTo(view()));
        const RowMatrix drawn = test::drawnCells(*panel->map());
        QCOMPARE(drawn.rows(), Eigen::Index(a->layers));
        QCOMPARE(drawn.cols(), Eigen::Index(a->heads));
        double largest = 0.0;
        for (int l = 0; l < a->layers; ++l)
            for (int h = 0; h < a->heads; ++h) {
                const ConstRowMatrixMap pa = a->probabilities(l, h), pb = b->probabilities(l, h);
                double divergence = 0.0;
                for (Eigen::Index i = 0; i < pa.rows(); ++i)
                    divergence += test::rowJensenShannon(pa, pb, i) / double(pa.rows());
                HL_COMPARE_NEAR(drawn(l, h), divergence, 1e-4, 1e-7);
                QCOMPARE(panel->map()->cellText(l, h), QString::number(divergence, 'f', 4));
                largest = std::max(largest, divergence);
            }
        QVERIFY(largest > 1e-4); // Q4_0 moves the heads: the map is not all zeros
        HL_COMPARE_NEAR(test::colorMapOf(*panel->map())->dataRange().upper, largest, 1e-4, 1e-7);

        // At first the traced layer's heads, its row outlined on the map.
        QCOMPARE(view()->shownLayer(), 0);
        QCOMPARE(panel->map()->highlightedRow(), 0);
        QCOMPARE(panel->map()->highlighted(), QPoint(-1, -1));
        // A click on the last layer's last head: that layer's rows, the cell outlined, its row
        // scrolled into view (the map and the heads above it fill more than the tab's height).
        const int layer = a->layers - 1, head = a->heads - 1;
        auto *scroll = view()->findChild<QScrollArea *>();
        QVERIFY(scroll);
        QTRY_VERIFY(scroll->verticalScrollBar()->maximum() > 0); // laid out, taller than the tab
        QCOMPARE(scroll->verticalScrollBar()->value(), 0);
        const QPoint cell = panel->map()->cellRect(layer, head).center().toPoint();
        QTest::mouseClick(panel->map(), Qt::LeftButton, Qt::NoModifier, cell);
        QCOMPARE(view()->shownLayer(), layer);
        QCOMPARE(panel->map()->highlighted(), QPoint(layer, head));
        QCOMPARE(view()->plotA(head)->title(), QString("L%1 H%2 · A").arg(layer).arg(head + 1));
        const RowMatrix drawnA = test::drawnCells(*view()->plotA(head));
        const RowMatrix drawnB = test::drawnCells(*view()->plotB(head));
        const ConstRowMatrixMap pa = a->probabilities(layer, head),
                                pb = b->probabilities(layer, head);
        for (Eigen::Index i = 0; i < pa.rows(); ++i)
            for (Eigen::Index j = 0; j < pa.cols(); ++j) {
                if (j > i) { // a causal model's hidden keys are drawn masked
                    QVERIFY(std::isnan(drawnA(i, j)) && std::isnan(drawnB(i, j)));
                    continue;
                }
                HL_COMPARE_NEAR(drawnA(i, j), pa(i, j), 1e-5, 1e-6);
                HL_COMPARE_NEAR(drawnB(i, j), pb(i, j), 1e-5, 1e-6);
            }
        const auto placeOfA = [&] {
            return QRect(view()->plotA(head)->mapTo(scroll->viewport(), QPoint(0, 0)),
                         view()->plotA(head)->size());
        };
        QTRY_VERIFY2(scroll->viewport()->rect().contains(placeOfA()),
                     qPrintable(QString("the head's A at y %1..%2, the viewport 0..%3")
                                    .arg(placeOfA().top())
                                    .arg(placeOfA().bottom())
                                    .arg(scroll->viewport()->height())));
        QVERIFY(scroll->verticalScrollBar()->value() > 0);
        QVERIFY(view()->plotA(head)->height() >= 200); // laid out, not a widget's first 30 pixels

        // The next tokens: A's and B's first five, each with its probability.
        PredictionsPair *predictions = panel->predictions();
        QCOMPARE(predictions->rowCount(), PredictionsPair::kRanks);
        for (int r = 0; r < PredictionsPair::kRanks; ++r) {
            for (const auto &[run, col] : {std::pair{a, 0}, std::pair{b, 2}}) {
                const TokenPrediction &p = run->topNext.at(size_t(r));
                QVERIFY2(predictions->item(r, col)->text().startsWith(
                             QString::fromStdString(Tokenizer::displayLabel(p.label))),
                         qPrintable(predictions->item(r, col)->text()));
                QCOMPARE(predictions->item(r, col + 1)->text(),
                         QString::number(p.probability, 'f', 3));
            }
        }
        // A's first token's rank among B's logits, counted here.
        const Vector &logitsB = b->firstLogits;
        const int first = a->topNext.at(0).tokenId;
        const int rank = int((logitsB.array() > logitsB(first)).count()) + 1;
        QVERIFY2(predictions->item(0, 0)->text().endsWith(QString("(#%1 in B)").arg(rank)),
                 qPrintable(predictions->item(0, 0)->text()));
    }

    // Two models that read the text as other tokens: B is refused with the reason, A stays.
    void modelsWithOtherTokenizersAreRefused()
    {
        QVERIFY(filesOf(*window)->openModel(QString(HEADLENS_TEST_DATA) + "/gpt2/tiny"));
        QTRY_VERIFY_WITH_TIMEOUT(modelsOf(*window)->controller()->run(), 20000);
        QVERIFY(waitUntilSettled(*window));
        window->showCompare();
        view()->setChange(ComparedChange::Model);
        view()->setTextB(QString(HEADLENS_TEST_DATA) + "/gguf/llama_tiny_f32.gguf");
        QTest::mouseClick(view()->findChild<QPushButton *>("compareButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(view()->message().startsWith("B could not be run"), 20000);
        QVERIFY2(view()->message().contains("cannot be compared one by one") ||
                     view()->message().contains("different tokenizers"),
                 qPrintable(view()->message()));
        QVERIFY(!view()->modelPanel()->isVisibleTo(view()));
        QVERIFY(shownTraceOf(*window)); // A is still drawn
    }
};

HEADLENS_TEST_MAIN(TestCompareView)
#include "tst_compareview.moc"
