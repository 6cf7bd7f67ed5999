// tst_wrappedlabel: the remembered heights are QLabel's own, for the text and font shown now.
#include "panels/wrappedlabel.h"
#include "testmain.h"

#include <QApplication>
#include <QTest>

using namespace headlens;

class TestWrappedLabel : public QObject
{
    Q_OBJECT

private slots:
    void heightsAreQLabelsForTheTextShownNow();
    void aNewFontGivesNewHeights();
};

namespace {

const QString kShortNote = "4 query heads per K/V head (GQA)";
const QString kLongNote =
    "Each of the 12 heads reads 64 of the 768 columns of Q, K and V; a head's "
    "output z_h is 64 wide, and the heads are put side by side again before "
    "the output projection W_O mixes them.";

/// A plain word-wrapped QLabel's height for `width`: the reference.
int qlabelHeight(const QString &text, const QFont &font, int width)
{
    QLabel reference(text);
    reference.setWordWrap(true);
    reference.setFont(font);
    return reference.heightForWidth(width);
}

} // namespace

// Asked again and again for a few widths (as a layout does), then given another text: every
// answer is what QLabel computes for the text on show, never a height remembered for the last.
void TestWrappedLabel::heightsAreQLabelsForTheTextShownNow()
{
    WrappedLabel label;
    QVERIFY(label.wordWrap());
    for (const QString &text : {kLongNote, kShortNote, kLongNote}) {
        label.setText(text);
        for (int round = 0; round < 2; ++round)
            for (int width : {80, 160, 320, 640, 160})
                QCOMPARE(label.heightForWidth(width), qlabelHeight(text, label.font(), width));
    }
    // The test means something: the long text's height differs between these widths.
    QCOMPARE_GT(qlabelHeight(kLongNote, label.font(), 80),
                qlabelHeight(kLongNote, label.font(), 640));
}

void TestWrappedLabel::aNewFontGivesNewHeights()
{
    WrappedLabel label;
    label.setText(kLongNote);
    const int before = label.heightForWidth(200);
    QFont larger = label.font();
    larger.setPointSizeF(larger.pointSizeF() * 2.0);
    label.setFont(larger);
    const int after = label.heightForWidth(200);
    QCOMPARE(after, qlabelHeight(kLongNote, larger, 200));
    QCOMPARE_GT(after, before);
}

HEADLENS_TEST_MAIN(TestWrappedLabel)
#include "tst_wrappedlabel.moc"
