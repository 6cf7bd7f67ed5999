// Tests of MetaspacePreTokenizer: the three prepend schemes and split, worked by hand.
#include "testmain.h"
#include "text/pipeline/metaspacepretokenizer.h"

#include <QTest>

using namespace headlens;
using Scheme = MetaspacePreTokenizer::PrependScheme;

Q_DECLARE_METATYPE(MetaspacePreTokenizer::PrependScheme)

class TestMetaspacePreTokenizer : public QObject
{
    Q_OBJECT

private slots:
    void schemes_data();
    void schemes();
};

void TestMetaspacePreTokenizer::schemes_data()
{
    QTest::addColumn<Scheme>("scheme");
    QTest::addColumn<bool>("split");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("atStart"); // the piece begins the typed text
    QTest::addColumn<QStringList>("pieces");
    QTest::newRow("always, at the start")
        << Scheme::Always << true << "Hey you" << true << QStringList{"▁Hey", "▁you"};
    QTest::newRow("always, after a special token")
        << Scheme::Always << true << "Hey" << false << QStringList{"▁Hey"};
    QTest::newRow("first, at the start")
        << Scheme::First << true << "Hey you" << true << QStringList{"▁Hey", "▁you"};
    // "<s>Hey": the text after the special token does not begin the input: no "▁".
    QTest::newRow("first, after a special token")
        << Scheme::First << true << "Hey" << false << QStringList{"Hey"};
    QTest::newRow("never") << Scheme::Never << true << "Hey you" << true
                           << QStringList{"Hey", "▁you"};
    QTest::newRow("no second ▁ when it starts with a space")
        << Scheme::Always << true << " Hey" << true << QStringList{"▁Hey"};
    QTest::newRow("without split: one piece")
        << Scheme::First << false << "Hey  you" << true << QStringList{"▁Hey▁▁you"};
    QTest::newRow("runs of spaces, split")
        << Scheme::Always << true << "a  b" << true << QStringList{"▁a", "▁", "▁b"};
}

void TestMetaspacePreTokenizer::schemes()
{
    QFETCH(Scheme, scheme);
    QFETCH(bool, split);
    QFETCH(QString, text);
    QFETCH(bool, atStart);
    QFETCH(QStringList, pieces);
    const MetaspacePreTokenizer metaspace("\u2581", scheme, split);
    std::vector<PreTokenizer::Piece> actual;
    metaspace.split({text.toStdString(), atStart}, actual);
    QStringList texts;
    for (const PreTokenizer::Piece &piece : actual)
        texts << QString::fromStdString(piece.text);
    QCOMPARE(texts, pieces);
}

HEADLENS_TEST_APPLESS_MAIN(TestMetaspacePreTokenizer)
#include "tst_metaspacepretokenizer.moc"
