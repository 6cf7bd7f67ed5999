// Tests of AddedTokens: added tokens cut out of the text, leftmost and longest first.
#include "text/pipeline/addedtokens.h"

#include <QTest>

using namespace headlens;

class TestAddedTokens : public QObject
{
    Q_OBJECT

private slots:
    void splits_data();
    void splits();
    void lookups();
};

void TestAddedTokens::splits_data()
{
    // Segments written as the text, or "#id" for an added token.
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("segments");
    QTest::newRow("none") << "plain text" << QStringList{"plain text"};
    QTest::newRow("alone") << "<a>" << QStringList{"#10"};
    QTest::newRow("between text") << "x<a>y" << QStringList{"x", "#10", "y"};
    QTest::newRow("two next to each other") << "<a><b>" << QStringList{"#10", "#11"};
    QTest::newRow("the same twice") << "<b> <b>" << QStringList{"#11", " ", "#11"};
    // "<a>" is a prefix of "<a>+": where both match, the longer one wins.
    QTest::newRow("longest where two start") << "<a>+1" << QStringList{"#12", "1"};
    QTest::newRow("the prefix alone") << "<a>-<a>+" << QStringList{"#10", "-", "#12"};
    QTest::newRow("half a token") << "<a <b" << QStringList{"<a <b"};
    QTest::newRow("empty") << "" << QStringList{};
}

void TestAddedTokens::splits()
{
    QFETCH(QString, text);
    QFETCH(QStringList, segments);
    const AddedTokens added({{"<a>", 10, true}, {"<b>", 11, true}, {"<a>+", 12, false}});
    QStringList actual;
    std::string joined;
    for (const AddedTokens::Segment &segment : added.split(text.toStdString())) {
        actual << (segment.id >= 0 ? "#" + QString::number(segment.id)
                                   : QString::fromStdString(segment.text));
        joined += segment.text;
    }
    QCOMPARE(actual, segments);
    QCOMPARE(QString::fromStdString(joined), text); // nothing lost
}

void TestAddedTokens::lookups()
{
    const AddedTokens added({{"<|endoftext|>", 50256, true}, {"<pad>", 3, true}});
    QCOMPARE(added.idOf("<pad>"), 3);
    QCOMPARE(added.idOf("<PAD>"), -1);
    QCOMPARE(added.find(50256)->content, std::string("<|endoftext|>"));
    QVERIFY(!added.find(4));
    QCOMPARE(added.idLimit(), 50257);
    QCOMPARE(AddedTokens().idLimit(), 0);
    QCOMPARE(AddedTokens().split("text").size(), size_t(1));
}

QTEST_APPLESS_MAIN(TestAddedTokens)
#include "tst_addedtokens.moc"
