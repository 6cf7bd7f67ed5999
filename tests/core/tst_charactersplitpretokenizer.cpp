// Tests of CharacterSplitPreTokenizer and WhitespacePreTokenizer: Digits, spaces, punctuation.
#include "testmain.h"
#include "text/pipeline/charactersplitpretokenizer.h"
#include "text/pipeline/whitespacepretokenizer.h"

#include <QTest>

#include <memory>

using namespace headlens;

class TestCharacterSplitPreTokenizer : public QObject
{
    Q_OBJECT

private slots:
    void splits_data();
    void splits();
};

void TestCharacterSplitPreTokenizer::splits_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("pieces");
    QTest::newRow("Digits individual") << "DigitsIndividual"
                                       << "a123b" << QStringList{"a", "1", "2", "3", "b"};
    QTest::newRow("Digits contiguous") << "Digits"
                                       << "a123b4" << QStringList{"a", "123", "b", "4"};
    QTest::newRow("Digits: other numerals") << "Digits"
                                            << "x\u0661\u00bd" << QStringList{"x", "\u0661\u00bd"};
    QTest::newRow("WhitespaceSplit") << "WhitespaceSplit"
                                     << " a\u3000b \t c " << QStringList{"a", "b", "c"};
    QTest::newRow("Punctuation isolated") << "Punctuation"
                                          << "a,b!!c" << QStringList{"a", ",", "b", "!", "!", "c"};
    QTest::newRow("Punctuation: ASCII symbols too")
        << "Punctuation"
        << "1+1=2$" << QStringList{"1", "+", "1", "=", "2", "$"};
    // whitespace.rs: \w+|[^\w\s]+
    QTest::newRow("Whitespace") << "Whitespace"
                                << "Hey man!! caf\u00e9's"
                                << QStringList{"Hey", "man", "!!", "caf\u00e9", "'", "s"};
    QTest::newRow("Whitespace: marks are word characters")
        << "Whitespace"
        << "e\u0301t\u00e9 ?!" << QStringList{"e\u0301t\u00e9", "?!"};
}

void TestCharacterSplitPreTokenizer::splits()
{
    using C = CharacterSplitPreTokenizer::CharacterClass;
    using B = SplitDelimiter::Behavior;
    QFETCH(QString, kind);
    QFETCH(QString, text);
    QFETCH(QStringList, pieces);
    std::shared_ptr<const PreTokenizer> preTokenizer;
    if (kind == "DigitsIndividual")
        preTokenizer = std::make_shared<CharacterSplitPreTokenizer>(C::Numeric, B::Isolated);
    else if (kind == "Digits")
        preTokenizer = std::make_shared<CharacterSplitPreTokenizer>(C::Numeric, B::Contiguous);
    else if (kind == "WhitespaceSplit")
        preTokenizer = std::make_shared<CharacterSplitPreTokenizer>(C::Whitespace, B::Removed);
    else if (kind == "Punctuation")
        preTokenizer = std::make_shared<CharacterSplitPreTokenizer>(C::Punctuation, B::Isolated);
    else
        preTokenizer = std::make_shared<WhitespacePreTokenizer>();
    QStringList actual;
    for (const std::string &piece : preTokenizer->preTokenize(text.toStdString()))
        actual << QString::fromStdString(piece);
    QCOMPARE(actual, pieces);
}

HEADLENS_TEST_APPLESS_MAIN(TestCharacterSplitPreTokenizer)
#include "tst_charactersplitpretokenizer.moc"
