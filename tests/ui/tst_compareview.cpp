// tst_compareview: the Compare tab against two runs of the core's Session made apart from it.
#include "compare/compareview.h"
#include "models/modelcontroller.h"
#include "runner/jobbuilder.h"
#include "runner/tracerunner.h"
#include "session/session.h"
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
};

HEADLENS_TEST_MAIN(TestCompareView)
#include "tst_compareview.moc"
