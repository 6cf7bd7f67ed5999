// tst_figuredialog: File > Export view's form gives back the figure a person chose.
#include "testmain.h"
#include "window/figuredialog.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
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
    FigureDialog dialog(8, 14, true, requestOf(Content(content), index, inches, dpi));
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
    FigureDialog dialog(8, 14, false, requestOf(Content::Heads, 0, QSizeF(4, 3), 300));
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
    FigureDialog dialog(4, 14, model, requestOf(Content::Model, 0, QSizeF(4, 3), 300));
    QComboBox *content = dialog.findChildren<QComboBox *>().value(0);
    QCOMPARE(content->findData(int(Content::Model)) >= 0, model);
    QCOMPARE(dialog.request().content == Content::Model, model);
}

// The number box runs over the heads (1 to h) or the steps (1 to 14), as people count them.
void TestFigureDialog::countsHeadsAndStepsFromOne()
{
    FigureDialog dialog(4, 14, false, requestOf(Content::Head, 3, QSizeF(4, 3), 300));
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
