// tst_wholewordslabel: the problem banner's lines end between words; a tensor's name or a path
// is cut (after a dot or a slash) only when it is wider than a whole line.
#include "panels/wholewordslabel.h"
#include "testmain.h"

#include <QApplication>
#include <QFontMetrics>
#include <QTest>

using namespace headlens;

class TestWholeWordsLabel : public QObject
{
    Q_OBJECT

private slots:
    void linesEndBetweenWords_data();
    void linesEndBetweenWords();
    void theLabelKeepsANameWholeAtEveryWidth();
};

namespace {

const QString kName = "'h.0.attn.c_attn.weight'";
const QString kFolder = "/tmp/models/gpt2/";

} // namespace

// Each width is made from the text's own pieces (their advance in the label's font plus a
// pixel), so the lines expected follow by hand from the rule.
void TestWholeWordsLabel::linesEndBetweenWords_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("widest"); ///< the line is this wide, and a pixel
    QTest::addColumn<QString>("lines");

    QTest::newRow("a name too long for the rest of the line moves down whole")
        << "holds " + kName << kName << "holds\n" + kName;
    QTest::newRow("words fill a line") << "a b c"
                                       << "a b"
                                       << "a b\nc";
    QTest::newRow("a path wider than a line breaks after a slash or a dot")
        << "the file " + kFolder + "weights.npz" << kFolder
        << "the file\n" + kFolder + "\nweights.npz";
    QTest::newRow("and may start the text")
        << kFolder + "weights.npz" << kFolder << kFolder + "\nweights.npz";
    QTest::newRow("the text's own line breaks stay") << "first line\nsecond"
                                                     << "first line second"
                                                     << "first line\nsecond";
}

void TestWholeWordsLabel::linesEndBetweenWords()
{
    QFETCH(QString, text);
    QFETCH(QString, widest);
    QFETCH(QString, lines);
    const QFontMetrics metrics(QApplication::font());
    QCOMPARE(WholeWordsLabel::broken(text, metrics, metrics.horizontalAdvance(widest) + 1), lines);
}

// The NaN warning of a GPT-2 checkpoint, in a banner narrower than the warning at several
// widths: the name is never split (Qt's own wrapping put "'h." at the end of a line), no line
// is wider than the label, and message() is the warning as given (what tests compare and a
// person copies), not the lines shown.
void TestWholeWordsLabel::theLabelKeepsANameWholeAtEveryWidth()
{
    const QString warning = "model.safetensors: " + kName +
                            " holds 3 NaN and 1 infinite values among its 768; attention "
                            "computed from it is not a number.";
    WholeWordsLabel label;
    label.show(); // a hidden widget gets its resize events only when shown
    label.setMessage(warning);
    const QFontMetrics metrics(label.font());
    for (int width : {metrics.horizontalAdvance(kName) + 10, 240, 320, 400}) {
        label.resize(width, 200);
        QCOMPARE(label.message(), warning);
        const QStringList shown = label.text().split('\n');
        QCOMPARE_GT(shown.size(), 1);
        QVERIFY2(shown.filter(kName).size() == 1, qPrintable(label.text()));
        for (const QString &line : shown)
            QCOMPARE_LE(metrics.horizontalAdvance(line), label.contentsRect().width());
        QCOMPARE(label.text().replace('\n', ' '), warning);
    }
}

HEADLENS_TEST_MAIN(TestWholeWordsLabel)
#include "tst_wholewordslabel.moc"
