// Tests the Atlas tab: each head's cell names its type and has the colour of the score shown,
// the score chooser recolours the map, and a head clicked is described and can be opened.
#include "lens/atlasview.h"
#include "lens/lensrunner.h"
#include "model/openedmodel.h"
#include "plot/heatmapplot.h"

#include "drawnheatmap.h"
#include "openedrun.h"
#include "testdata.h"
#include "testmain.h"

#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTest>

using namespace headlens;

namespace {

/// Empty when every cell of `view`'s map has, near its top-left corner (away from the text
/// written in its middle), the colour of the value the view says it shows there.
QByteArray cellsMismatch(AtlasView &view)
{
    HeatmapPlot &map = *view.map();
    const QImage image = test::renderedPicture(map);
    const Colormap colormap = PlotStyle().colormap;
    for (int layer = 0; layer < map.rowCount(); ++layer)
        for (int head = 0; head < map.colCount(); ++head) {
            const QRect cell = map.cellRect(layer, head).toAlignedRect();
            const QRgb seen = image.pixel(cell.topLeft() + QPoint(3, 3));
            const QRgb want =
                test::expectedColor(colormap, view.shownValue(layer, head), {0.0, 1.0});
            if (std::abs(qRed(seen) - qRed(want)) > 2 ||
                std::abs(qGreen(seen) - qGreen(want)) > 2 ||
                std::abs(qBlue(seen) - qBlue(want)) > 2)
                return QString("head %1.%2: drawn %3, expected %4")
                    .arg(layer)
                    .arg(head + 1)
                    .arg(QColor(seen).name(), QColor(want).name())
                    .toLatin1();
        }
    return {};
}

/// Whether item `data` of `box` can be chosen.
bool choosable(const QComboBox &box, int data)
{
    const auto *model = qobject_cast<const QStandardItemModel *>(box.model());
    return model->item(box.findData(data))->isEnabled();
}

} // namespace

class TestAtlasView : public QObject
{
    Q_OBJECT

private slots:
    void cellsNameTypesInTheColourOfTheScoreShown();
    void aHeadClickedIsDescribedAndOpened();
    void nothingIsComputedWhileHidden();
    void encodersScoreClsNotTheFirstToken();
};

void TestAtlasView::cellsNameTypesInTheColourOfTheScoreShown()
{
    const auto run = test::openedRun(test::tinyGpt2(),
                                     "Hello world, the cat sat on the mat. The cat sat on the");
    AtlasView view;
    view.resize(1000, 800);
    view.setRun(run);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY_WITH_TIMEOUT(view.atlas() != nullptr, 20000);
    const HeadAtlas &atlas = *view.atlas();
    HeatmapPlot &map = *view.map();
    QCOMPARE(map.rowCount(), run->layers);
    QCOMPARE(map.colCount(), run->heads);
    QCOMPARE(map.rowLabels().last(), QStringLiteral("layer 1"));
    QCOMPARE(map.colLabels().first(), QStringLiteral("1"));
    // Every cell names its head's type, and the cells are wide enough to show the names.
    QVERIFY(map.cellTextsShown());
    for (int layer = 0; layer < atlas.layers; ++layer)
        for (int head = 0; head < atlas.heads; ++head)
            QCOMPARE(map.cellText(layer, head),
                     QString::fromStdString(atlas.typeLabel(layer, head)));
    // First shown: each type's score above chance ((s - c) / (1 - c)), 0 for "-".
    for (int layer = 0; layer < atlas.layers; ++layer)
        for (int head = 0; head < atlas.heads; ++head) {
            const auto type = atlas.type(layer, head);
            const double expected =
                type ? (atlas.score(*type, layer, head) - atlas.chance[size_t(*type)]) /
                           (1.0 - atlas.chance[size_t(*type)])
                     : 0.0;
            QVERIFY(std::abs(view.shownValue(layer, head) - expected) < 1e-9);
        }
    QByteArray mismatch = cellsMismatch(view);
    QVERIFY2(mismatch.isEmpty(), mismatch.constData());
    // Chosen: induction. Every cell takes its induction score's colour; the bar names the
    // chance.
    QComboBox &choice = *view.scoreChoice();
    const int induction = choice.findData(int(AtlasScore::Induction));
    choice.setCurrentIndex(induction);
    emit choice.activated(induction);
    for (int layer = 0; layer < atlas.layers; ++layer)
        for (int head = 0; head < atlas.heads; ++head)
            QCOMPARE(view.shownValue(layer, head), atlas.score(AtlasScore::Induction, layer, head));
    mismatch = cellsMismatch(view);
    QVERIFY2(mismatch.isEmpty(), mismatch.constData());
    // A decoder's text has no [CLS]: that score cannot be chosen; punctuation can.
    QVERIFY(!choosable(choice, int(AtlasScore::Cls)));
    QVERIFY(choosable(choice, int(AtlasScore::Punctuation)));
    QVERIFY2(view.summary().contains(QString("%1 heads").arg(atlas.layers * atlas.heads)),
             qPrintable(view.summary()));
}

void TestAtlasView::aHeadClickedIsDescribedAndOpened()
{
    AtlasView view;
    view.resize(1000, 800);
    view.setRun(test::openedRun(test::tinyGpt2(), "one two three one two three"));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY_WITH_TIMEOUT(view.atlas() != nullptr, 20000);
    view.map()->replot(QCustomPlot::rpImmediateRefresh);
    QSignalSpy opened(&view, &AtlasView::headOpened);
    auto *open = view.findChild<QPushButton *>("atlasOpenHead");
    QVERIFY(open && !open->isEnabled()); // no head chosen yet
    const QRect cell = view.map()->cellRect(1, 1).toAlignedRect();
    QTest::mouseClick(view.map(), Qt::LeftButton, {}, cell.topLeft() + QPoint(4, 4));
    const QString text = view.headText();
    QVERIFY2(text.contains("Head 1.2"), qPrintable(text));
    const double induction = view.atlas()->score(AtlasScore::Induction, 1, 1);
    QVERIFY2(text.contains(QString("induction %1").arg(induction, 0, 'f', 3)), qPrintable(text));
    QVERIFY(!text.contains("[CLS]")); // not measured in a decoder
    QVERIFY(open->isEnabled());
    open->click();
    QCOMPARE(opened.count(), 1);
    QCOMPARE(opened.first().at(0).toInt(), 1);
    QCOMPARE(opened.first().at(1).toInt(), 1);
    // The tooltip lists the same scores, one a line.
    QVERIFY(view.headToolTip(1, 1).contains(QString("induction %1").arg(induction, 0, 'f', 3)));
}

void TestAtlasView::nothingIsComputedWhileHidden()
{
    AtlasView view;
    const auto first = test::openedRun(test::tinyGpt2(), "Hello world");
    view.setRun(first);
    QVERIFY(!view.runner()->isRunning()); // nothing asked for, so nothing can arrive
    QVERIFY(view.atlas() == nullptr);
    view.show(); // shown: computed
    QTRY_VERIFY_WITH_TIMEOUT(view.atlas() != nullptr, 20000);
    // The same tokens with another layer traced: the atlas stands, nothing is computed.
    const std::shared_ptr<const HeadAtlas> before = view.atlas();
    auto retraced = std::make_shared<ModelRun>(*first);
    retraced->source.layer = 1;
    view.setRun(retraced);
    QVERIFY(!view.runner()->isRunning());
    QVERIFY(view.atlas() == before);
    view.setRun(test::openedRun(test::tinyGpt2(),
                                "Hello there world")); // a new text while shown: computed again
    QVERIFY(view.runner()->isRunning());
}

void TestAtlasView::encodersScoreClsNotTheFirstToken()
{
    AtlasView view;
    view.resize(1000, 800);
    view.setRun(test::openedRun(test::bertMlm(), "The cat sat on the [MASK] ."));
    view.show();
    QTRY_VERIFY_WITH_TIMEOUT(view.atlas() != nullptr, 20000);
    QVERIFY(choosable(*view.scoreChoice(), int(AtlasScore::Cls)));
    QVERIFY(choosable(*view.scoreChoice(), int(AtlasScore::Sep)));
    QVERIFY(!choosable(*view.scoreChoice(), int(AtlasScore::FirstToken)));
}

HEADLENS_TEST_MAIN(TestAtlasView)
#include "tst_atlasview.moc"
