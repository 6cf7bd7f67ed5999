// tst_figuredialog: File > Export view's form gives back the figure a person chose, and offers
// the analyses of the model's run only while they are of the run on screen.
#include "lens/atlasview.h"
#include "models/modelcontroller.h"
#include "testdata.h"
#include "testmain.h"
#include "window/figuredialog.h"
#include "window/filecommands.h"
#include "window/mainwindow.h"
#include "window/modelwiring.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using Content = FigureRequest::Content;

class TestFigureDialog : public QObject
{
    Q_OBJECT

private slots:
    void givesBackWhatItWasGiven_data();
    void givesBackWhatItWasGiven();
    void sizesFollowTheUnit();
    void offersTheModelOnlyWithOne_data();
    void offersTheModelOnlyWithOne();
    void offersTheAnalysesComputed();
    void analysesAreOfTheRunOnScreen();
    void countsHeadsAndStepsFromOne();
};

namespace {

FigureRequest requestOf(Content content, int index, QSizeF inches, int dpi)
{
    FigureRequest r;
    r.content = content;
    r.index = index;
    r.inches = inches;
    r.dpi = dpi;
    return r;
}

QComboBox *unitBox(FigureDialog &dialog)
{
    for (QComboBox *box : dialog.findChildren<QComboBox *>())
        if (box->findText("in") >= 0)
            return box;
    return nullptr;
}

} // namespace

void TestFigureDialog::givesBackWhatItWasGiven_data()
{
    QTest::addColumn<int>("content");
    QTest::addColumn<int>("index");
    QTest::addColumn<QSizeF>("inches");
    QTest::addColumn<int>("dpi");
    QTest::newRow("heads, 8.5 x 6 cm, 300 dpi")
        << int(Content::Heads) << 0 << QSizeF(8.5 / 2.54, 6 / 2.54) << 300;
    QTest::newRow("head 3, 3.3 x 2.4 in, 150 dpi")
        << int(Content::Head) << 2 << QSizeF(3.3, 2.4) << 150;
    QTest::newRow("step 9, A4 across, 600 dpi")
        << int(Content::Step) << 8 << QSizeF(27.7 / 2.54, 19 / 2.54) << 600;
    QTest::newRow("model") << int(Content::Model) << 0 << QSizeF(6, 4) << 72;
}

void TestFigureDialog::givesBackWhatItWasGiven()
{
    QFETCH(int, content);
    QFETCH(int, index);
    QFETCH(QSizeF, inches);
    QFETCH(int, dpi);
    FigureDialog dialog(8, 14, true, {}, requestOf(Content(content), index, inches, dpi));
    const FigureRequest r = dialog.request();
    QCOMPARE(int(r.content), content);
    if (r.content == Content::Head || r.content == Content::Step)
        QCOMPARE(r.index, index);
    // Shown with two decimals of a cm: within 0.005 cm.
    QVERIFY2(std::abs(r.inches.width() - inches.width()) < 0.005 / 2.54 + 1e-9 &&
                 std::abs(r.inches.height() - inches.height()) < 0.005 / 2.54 + 1e-9,
             qPrintable(QString("%1 x %2 in").arg(r.inches.width()).arg(r.inches.height())));
    QCOMPARE(r.dpi, dpi);
}

// Switching cm to inches shows the same size in the other unit.
void TestFigureDialog::sizesFollowTheUnit()
{
    FigureDialog dialog(8, 14, false, {}, requestOf(Content::Heads, 0, QSizeF(4, 3), 300));
    const QList<QDoubleSpinBox *> sizes = dialog.findChildren<QDoubleSpinBox *>();
    QCOMPARE(sizes.size(), 2);
    QCOMPARE(sizes[0]->value(), 10.16); // 4 in, in cm
    QComboBox *unit = unitBox(dialog);
    QVERIFY(unit);
    unit->setCurrentIndex(unit->findText("in"));
    QCOMPARE(sizes[0]->value(), 4.0);
    QCOMPARE(sizes[1]->value(), 3.0);
    sizes[0]->setValue(3.3);
    QCOMPARE(dialog.request().inches, QSizeF(3.3, 3.0));
}

void TestFigureDialog::offersTheModelOnlyWithOne_data()
{
    QTest::addColumn<bool>("model");
    QTest::newRow("a model ran") << true;
    QTest::newRow("the built-in layer") << false;
}

void TestFigureDialog::offersTheModelOnlyWithOne()
{
    QFETCH(bool, model);
    FigureDialog dialog(4, 14, model, {}, requestOf(Content::Model, 0, QSizeF(4, 3), 300));
    QComboBox *content = dialog.findChildren<QComboBox *>().value(0);
    QCOMPARE(content->findData(int(Content::Model)) >= 0, model);
    QCOMPARE(dialog.request().content == Content::Model, model);
}

// The analyses of a model's run are offered when computed, named as a person reads them, and
// chosen first when their tab is the one shown.
void TestFigureDialog::offersTheAnalysesComputed()
{
    FigureDialog dialog(4, 14, true, {Content::Atlas, Content::Circuits},
                        requestOf(Content::Circuits, 0, QSizeF(4, 3), 300));
    QComboBox *content = dialog.findChildren<QComboBox *>().value(0);
    QStringList offered;
    for (int i = 0; i < content->count(); ++i)
        offered << content->itemText(i);
    QCOMPARE(offered,
             (QStringList{"Grid of heads", "One head", "Model overview (every layer × head)",
                          "Head atlas (every head's type)", "QK and OV circuits of the head",
                          "Pipeline step (as on the handout)"}));
    QCOMPARE(dialog.request().content, Content::Circuits);
    // The built-in layer has no model and so no analysis.
    FigureDialog builtIn(4, 14, false, {Content::Atlas},
                         requestOf(Content::Atlas, 0, QSizeF(4, 3), 300));
    QCOMPARE(builtIn.findChildren<QComboBox *>().value(0)->findData(int(Content::Atlas)), -1);
}

// The atlas computed on the Atlas tab is offered for export; once the text changes while another
// tab is shown, the atlas held is the old text's, and is not offered until it is computed again.
void TestFigureDialog::analysesAreOfTheRunOnScreen()
{
    QTemporaryDir dir;
    test::keepSettingsIn(dir.path());
    auto window = test::settledWindow("The cat sat on the mat");
    QVERIFY(window);
    QVERIFY(test::filesOf(*window)->openModel(test::tinyGpt2()));
    QTRY_VERIFY_WITH_TIMEOUT(test::modelsOf(*window)->controller()->run(), 20000);
    QVERIFY(test::waitUntilSettled(*window));
    ModelWiring *models = test::modelsOf(*window);
    QVERIFY(!models->figureAnalyses().atlas); // not computed yet
    window->showAtlasTab();
    QTRY_VERIFY_WITH_TIMEOUT(models->figureAnalyses().atlas != nullptr, 20000);
    QVERIFY(models->figureAnalyses().atlas == models->atlas()->atlas());
    QCOMPARE(models->figureAnalyses().atlas->textTokens,
             int(models->controller()->run()->tokenIds.size()));
    window->showModelTab();
    test::workspaceOf(*window)->setText("A dog ran far away from the big house");
    QVERIFY(test::waitUntilSettled(*window));
    QTRY_VERIFY_WITH_TIMEOUT(models->controller()->run()->tokens.size() > 6, 20000);
    QVERIFY(models->atlas()->atlas() != nullptr); // the old text's, kept while hidden
    QVERIFY(!models->figureAnalyses().atlas);
    window->showAtlasTab();
    QTRY_VERIFY_WITH_TIMEOUT(models->figureAnalyses().atlas != nullptr, 20000);
    QCOMPARE(models->figureAnalyses().atlas->textTokens,
             int(models->controller()->run()->tokenIds.size()));
}

// The number box runs over the heads (1 to h) or the steps (1 to 14), as people count them.
void TestFigureDialog::countsHeadsAndStepsFromOne()
{
    FigureDialog dialog(4, 14, false, {}, requestOf(Content::Head, 3, QSizeF(4, 3), 300));
    QSpinBox *index = nullptr;
    for (QSpinBox *box : dialog.findChildren<QSpinBox *>())
        if (box->suffix().isEmpty())
            index = box;
    QVERIFY(index);
    QCOMPARE(index->minimum(), 1);
    QCOMPARE(index->maximum(), 4);
    QCOMPARE(index->value(), 4);
    QComboBox *content = dialog.findChildren<QComboBox *>().value(0);
    content->setCurrentIndex(content->findData(int(Content::Step)));
    QCOMPARE(index->maximum(), 14);
    index->setValue(14);
    QCOMPARE(dialog.request().index, 13);
    QCOMPARE(dialog.request().content, Content::Step);
}

HEADLENS_TEST_MAIN(TestFigureDialog)
#include "tst_figuredialog.moc"
