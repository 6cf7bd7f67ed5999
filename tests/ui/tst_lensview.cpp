// Tests the Lens tab: the logit lens's cells (colour, text, tooltip) and the attribution's map.
#include "lens/attributionpanel.h"
#include "lens/lensrunner.h"
#include "lens/lensview.h"
#include "lens/logitlensplot.h"
#include "model/openedmodel.h"
#include "views/differenceheatmap.h"

#include "openedrun.h"
#include "testdata.h"
#include "testmain.h"
#include <QComboBox>

#include <QTest>

using namespace headlens;

namespace {

/// `view` shown at `size` with `run`, as the Lens tab shows it: the lens starts.
void showWith(LensView &view, std::shared_ptr<const ModelRun> run, QSize size)
{
    view.resize(size);
    view.setRun(std::move(run));
    view.show();
}

/// The colour HeatmapPlot gives `value` on `plot`'s scale.
QColor colourOf(HeatmapPlot &plot, double value)
{
    const auto *map = qobject_cast<QCPColorMap *>(plot.plottable(0));
    return QColor::fromRgb(map->gradient().color(value, map->dataRange(), false));
}

bool near(const QColor &a, const QColor &b, int tolerance = 6)
{
    return std::abs(a.red() - b.red()) <= tolerance &&
           std::abs(a.green() - b.green()) <= tolerance &&
           std::abs(a.blue() - b.blue()) <= tolerance;
}

} // namespace

class TestLensView : public QObject
{
    Q_OBJECT

private slots:
    void lensCellsShowTheFinalTokensProbabilityAndTheirTopToken();
    void attributionFollowsTheChoicesAndTheColumns();
    void nothingIsComputedWhileHidden();
    void encoderReadsTheMaskAndRefusesTheAttribution();
};

void TestLensView::lensCellsShowTheFinalTokensProbabilityAndTheirTopToken()
{
    const auto run = test::openedRun(test::tinyGpt2(), "Hello world, the cat sat");
    LensView view;
    showWith(view, run, QSize(1200, 900));
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY_WITH_TIMEOUT(view.lensPlot()->lens() != nullptr, 20000);
    LogitLensPlot &plot = *view.lensPlot();
    const LogitLens &lens = *plot.lens();
    const int n = int(run->tokenIds.size());
    QCOMPARE(plot.rowCount(), run->layers + 1); // the embeddings, then every layer
    QCOMPARE(plot.colCount(), n);               // a decoder: every position
    QCOMPARE(plot.rowLabels().first(), QStringLiteral("embeddings"));
    QCOMPARE(plot.rowLabels().last(), QStringLiteral("layer 1"));
    QCOMPARE(plot.colLabels().last(), QString::fromStdString(run->tokens.back()));
    // The last stage at the last position is the model's own next-token prediction.
    QCOMPARE(lens.finalTokens.back(), run->topNext.front().tokenId);
    QCOMPARE(plot.cellText(run->layers, n - 1), QString::fromStdString(run->topNext.front().label));
    QVERIFY(std::abs(lens.finalProbability(run->layers, n - 1) - run->topNext.front().probability) <
            1e-5);
    // Each cell is drawn in its probability's colour, on the fixed 0..1 scale.
    plot.replot();
    QApplication::processEvents();
    const QImage image = plot.grab().toImage();
    for (const auto &[row, col] : {std::pair{0, 0}, {run->layers, n - 1}, {1, n / 2}}) {
        const QRect cell = plot.cellRect(row, col).toAlignedRect();
        const QColor corner = image.pixelColor(cell.topLeft() + QPoint(2, 2));
        const QColor expected = colourOf(plot, lens.finalProbability(row, col));
        QVERIFY2(near(corner, expected), qPrintable(QString("cell %1,%2: %3 against %4")
                                                        .arg(row)
                                                        .arg(col)
                                                        .arg(corner.name(), expected.name())));
    }
    // At 1200 px the cells are wide enough for their tokens, which are written over them: the
    // cell's middle holds pixels of another colour than the cell's own.
    QVERIFY(plot.cellTextsShown());
    const QRect last = plot.cellRect(run->layers, n - 1).toAlignedRect();
    const QColor own = colourOf(plot, lens.finalProbability(run->layers, n - 1));
    int written = 0; // pixels of the glyphs (a "." is a few pixels, away from the middle line)
    for (int y = last.top() + 2; y < last.bottom() - 2; ++y)
        for (int x = last.left() + 3; x < last.right() - 3; ++x)
            written += !near(image.pixelColor(x, y), own, 40);
    QVERIFY2(written >= 2, qPrintable(QString::number(written)));
    // The tooltip lists the stage's ten most probable tokens with their probabilities.
    const QString tip = plot.cellToolTip(0, 0);
    QVERIFY2(tip.contains("embeddings") && tip.count("<br>&nbsp;&nbsp;") == LensRunner::kLensTop,
             qPrintable(tip));
    // 28 tokens (the tiny model's context is 32) in 300 px: cells narrower than a letter, so
    // colours only.
    std::string many;
    for (int k = 0; k < 28; ++k)
        many += k % 2 ? " cat" : " the";
    LensView narrow;
    showWith(narrow, test::openedRun(test::tinyGpt2(), many), QSize(300, 700));
    QTRY_VERIFY_WITH_TIMEOUT(narrow.lensPlot()->lens() != nullptr, 20000);
    narrow.lensPlot()->replot();
    QApplication::processEvents();
    QVERIFY2(narrow.lensPlot()->colCount() >= 20,
             qPrintable(QString::number(narrow.lensPlot()->colCount())));
    QVERIFY(!narrow.lensPlot()->cellTextsShown());
}

void TestLensView::attributionFollowsTheChoicesAndTheColumns()
{
    const auto run = test::openedRun(test::tinyGpt2(), "Hello world, the cat sat");
    LensView view;
    showWith(view, run, QSize(1200, 900));
    AttributionPanel &panel = *view.attribution();
    QTRY_VERIFY_WITH_TIMEOUT(panel.attribution() != nullptr, 20000);
    const int n = int(run->tokenIds.size());
    {
        const LogitAttribution &a = *panel.attribution();
        QCOMPARE(a.position, n - 1);                     // the last position first
        QCOMPARE(a.token, run->topNext.front().tokenId); // with the model's top token
        QCOMPARE(a.wrong, -1);
        QVERIFY(std::abs(a.sum() - a.logit) < 1e-4);
        QCOMPARE(panel.map()->rowCount(), run->layers);
        QCOMPARE(panel.map()->colCount(), run->heads);
        // The head that pushes most either way is the one described first.
        Eigen::Index layer = 0, head = 0;
        a.heads.cwiseAbs().maxCoeff(&layer, &head);
        QCOMPARE(panel.chosenLayer(), int(layer));
        QCOMPARE(panel.chosenHead(), int(head));
        QVERIFY2(panel.headText().contains(QString("Head %1.%2").arg(layer).arg(head + 1)),
                 qPrintable(panel.headText()));
        QVERIFY2(panel.partsText().contains(QString::number(a.logit, 'f', 3)),
                 qPrintable(panel.partsText()));
        // The map's colours: the strongest head at an end of the diverging scale.
        panel.map()->replot();
        QApplication::processEvents();
        const QImage image = panel.map()->grab().toImage();
        const QRect cell = panel.map()->cellRect(int(layer), int(head)).toAlignedRect();
        QVERIFY(
            near(image.pixelColor(cell.center()), colourOf(*panel.map(), a.heads(layer, head)), 8));
    }
    // "minus" the second most probable token: logit(top) - logit(second).
    auto *wrong = panel.findChild<QComboBox *>("dlaWrong");
    QVERIFY(wrong && wrong->count() == 1 + LensRunner::kLensTop);
    wrong->setCurrentIndex(2);
    emit wrong->activated(2);
    QTRY_VERIFY_WITH_TIMEOUT(panel.attribution()->wrong == wrong->itemData(2).toInt(), 20000);
    QVERIFY(std::abs(panel.attribution()->sum() - panel.attribution()->logit) < 1e-4);
    // A click on the lens's first column attributes the first position.
    const QRect first = view.lensPlot()->cellRect(0, 0).toAlignedRect();
    QTest::mouseClick(view.lensPlot(), Qt::LeftButton, {}, first.center());
    QTRY_VERIFY_WITH_TIMEOUT(panel.attribution()->position == 0, 20000);
    QCOMPARE(panel.attribution()->token, view.lensPlot()->lens()->finalTokens.front());
    // A head pinned elsewhere is outlined and described here.
    view.chooseHead(1, 0);
    QVERIFY(panel.headText().contains("Head 1.1"));
}

void TestLensView::nothingIsComputedWhileHidden()
{
    LensView view;
    view.setRun(test::openedRun(test::tinyGpt2(), "Hello world"));
    QVERIFY(!view.runner()->isRunning()); // nothing asked for, so nothing can arrive
    QVERIFY(view.lensPlot()->lens() == nullptr);
    view.show(); // shown: computed
    QTRY_VERIFY_WITH_TIMEOUT(view.lensPlot()->lens() != nullptr, 20000);
}

void TestLensView::encoderReadsTheMaskAndRefusesTheAttribution()
{
    LensView view;
    showWith(view, test::openedRun(test::bertMlm(), "The cat sat on the [MASK] ."),
             QSize(1000, 800));
    QTRY_VERIFY_WITH_TIMEOUT(view.lensPlot()->lens() != nullptr, 20000);
    QCOMPARE(view.lensPlot()->colCount(), 1); // the one mask
    QCOMPARE(view.lensPlot()->colLabels().first(), QStringLiteral("[MASK]"));
    QTRY_VERIFY_WITH_TIMEOUT(view.attribution()->status().contains("normalises the stream after "
                                                                   "every block"),
                             20000);
    QVERIFY(!view.attribution()->map()->isVisible());
}

HEADLENS_TEST_MAIN(TestLensView)
#include "tst_lensview.moc"
