// Tests of WordPieceModel: longest match first, "##" continuations, and [UNK], worked by hand.
#include "testmain.h"
#include "text/pipeline/wordpiecemodel.h"

#include <QTest>

using namespace headlens;

class TestWordPieceModel : public QObject
{
    Q_OBJECT

private slots:
    void tokenizes_data();
    void tokenizes();
};

void TestWordPieceModel::tokenizes_data()
{
    QTest::addColumn<QString>("word");
    QTest::addColumn<QStringList>("tokens");
    // Devlin et al. 2019's example.
    QTest::newRow("unaffable") << "unaffable" << QStringList{"un", "##aff", "##able"};
    QTest::newRow("a whole word") << "able" << QStringList{"able"};
    QTest::newRow("longest first") << "unable" << QStringList{"un", "##able"}; // not ##a ##ble
    QTest::newRow("no piece for the rest") << "unx" << QStringList{"[UNK]"};
    QTest::newRow("no piece to start") << "xun" << QStringList{"[UNK]"};
    QTest::newRow("100 characters")
        << QString(100, 'a') << QStringList{"a"} + QStringList(99, "##a");
    QTest::newRow("101 characters") << QString(101, 'a') << QStringList{"[UNK]"};
    QTest::newRow("characters, not bytes") << QString(100, QChar(0xE9)) // é, 2 bytes each
                                           << QStringList{"é"} + QStringList(99, "##é");
}

void TestWordPieceModel::tokenizes()
{
    QFETCH(QString, word);
    QFETCH(QStringList, tokens);
    WordPieceModel::Vocabulary vocabulary;
    for (const char *token :
         {"[UNK]", "un", "##aff", "##able", "##ble", "able", "a", "##a", "é", "##é"})
        vocabulary.emplace(token, static_cast<int>(vocabulary.size()));
    const WordPieceModel model(vocabulary, WordPieceModel::Options());
    std::vector<int> ids;
    model.tokenize(word.toStdString(), ids);
    QStringList actual;
    for (int id : ids)
        actual << QString::fromStdString(*model.tokenOf(id));
    QCOMPARE(actual, tokens);
}

HEADLENS_TEST_APPLESS_MAIN(TestWordPieceModel)
#include "tst_wordpiecemodel.moc"
