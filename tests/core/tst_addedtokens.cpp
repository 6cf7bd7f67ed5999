// Tests of AddedTokens: added tokens cut out of the text, leftmost and longest first.
#include "testmain.h"
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
    void options_data();
    void options();
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

void TestAddedTokens::options_data()
{
    // added_vocabulary.rs find_matches: segments written as "[text]" for a token's segment.
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("segments");
    QTest::newRow("lstrip takes the spaces before")
        << "a  <L> b" << QStringList{"a", "[  <L>]", " b"};
    QTest::newRow("lstrip at the start") << " <L>" << QStringList{"[ <L>]"};
    QTest::newRow("rstrip takes the spaces after")
        << "a <R>\t b" << QStringList{"a ", "[<R>\t ]", "b"};
    QTest::newRow("single word alone") << "x sw y" << QStringList{"x ", "[sw]", " y"};
    QTest::newRow("single word inside a word") << "swim" << QStringList{"swim"};
    QTest::newRow("single word after a word") << "asw" << QStringList{"asw"};
    QTest::newRow("single word before punctuation") << "sw." << QStringList{"[sw]", "."};
    // A match that breaks single_word is skipped; the search goes on after it (Aho-Corasick).
    QTest::newRow("skipped, then found") << "swsw sw" << QStringList{"swsw ", "[sw]"};
}

void TestAddedTokens::options()
{
    QFETCH(QString, text);
    QFETCH(QStringList, segments);
    AddedToken lstrip{"<L>", 1, true}, rstrip{"<R>", 2, true}, word{"sw", 3, false};
    lstrip.lstrip = true;
    rstrip.rstrip = true;
    word.singleWord = true;
    const AddedTokens added({lstrip, rstrip, word});
    QStringList actual;
    for (const AddedTokens::Segment &segment : added.split(text.toStdString())) {
        const QString part = QString::fromStdString(segment.text);
        actual << (segment.id >= 0 ? "[" + part + "]" : part);
    }
    QCOMPARE(actual, segments);
}

HEADLENS_TEST_APPLESS_MAIN(TestAddedTokens)
#include "tst_addedtokens.moc"
