// Tests of ByteLevelPreTokenizer: GPT-2's pattern split worked out by hand.
#include "testmain.h"
#include "text/pipeline/bytelevelpretokenizer.h"
#include "text/pipeline/splitpretokenizer.h"

#include <QTest>

using namespace headlens;

namespace {

QStringList toList(const std::vector<std::string> &pieces)
{
    QStringList list;
    for (const std::string &piece : pieces)
        list << QString::fromStdString(piece);
    return list;
}

} // namespace

class TestByteLevelPreTokenizer : public QObject
{
    Q_OBJECT

private slots:
    void splitsLikeGpt2_data();
    void splitsLikeGpt2();
    void spellsPiecesInByteSymbols();
    void prefixSpaceAndNoRegex();
    void prefixSpaceOnEveryPiece();
};

void TestByteLevelPreTokenizer::splitsLikeGpt2_data()
{
    // 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+ tried in order
    // at each place: contractions first, a word or number takes one space before it, and a run
    // of spaces before a word gives its last space to the word (\s+(?!\S) backs off by one).
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("pieces");
    QTest::newRow("contractions, digits, two spaces")
        << "I'll pay 1,000 dollars  today, they're sure."
        << QStringList{"I", "'ll",    " pay", " 1",    ",",   "000",   " dollars",
                       " ", " today", ",",    " they", "'re", " sure", "."};
    QTest::newRow("contractions are lower case only")
        << "WE'LL don't" << QStringList{"WE", "'", "LL", " don", "'t"};
    QTest::newRow("digits then letters") << "2019abc 42" << QStringList{"2019", "abc", " 42"};
    QTest::newRow("trailing spaces") << "hi  " << QStringList{"hi", "  "};
    QTest::newRow("blank line") << "a\n\nb" << QStringList{"a", "\n", "\n", "b"};
    QTest::newRow("space before punctuation") << "x !?" << QStringList{"x", " !?"};
}

void TestByteLevelPreTokenizer::splitsLikeGpt2()
{
    QFETCH(QString, text);
    QFETCH(QStringList, pieces);
    const ByteLevelPreTokenizer preTokenizer;
    QCOMPARE(toList(preTokenizer.words(text.toStdString())), pieces);
    const SplitPreTokenizer split(TextPattern::regex(ByteLevelPreTokenizer::kGpt2Pattern),
                                  SplitDelimiter::Behavior::Isolated);
    QCOMPARE(toList(split.preTokenize(text.toStdString())), pieces);
}

void TestByteLevelPreTokenizer::spellsPiecesInByteSymbols()
{
    const ByteLevelPreTokenizer preTokenizer;
    QCOMPARE(toList(preTokenizer.preTokenize("Hello world\n")),
             (QStringList{"Hello", "Ġworld", "Ċ"}));
    QCOMPARE(toList(preTokenizer.preTokenize(" café")), QStringList{"ĠcafÃ©"});
    QCOMPARE(toList(preTokenizer.preTokenize("")), QStringList{});
}

void TestByteLevelPreTokenizer::prefixSpaceAndNoRegex()
{
    // byte_level.rs: add_prefix_space adds a space only where there is none yet.
    const ByteLevelPreTokenizer prefixed(true, true);
    QCOMPARE(toList(prefixed.preTokenize("Hello world")), (QStringList{"ĠHello", "Ġworld"}));
    QCOMPARE(toList(prefixed.preTokenize(" Hello")), QStringList{"ĠHello"});
    // use_regex false (Llama 3 splits before, with its own pattern): one piece, spelled.
    const ByteLevelPreTokenizer whole(false, false);
    QCOMPARE(toList(whole.preTokenize("Hello world")), QStringList{"HelloĠworld"});
}

void TestByteLevelPreTokenizer::prefixSpaceOnEveryPiece()
{
    // byte_level.rs prepends to every piece it is given, not only the first of the text.
    const ByteLevelPreTokenizer prefixed(true, false);
    std::vector<PreTokenizer::Piece> pieces;
    prefixed.split({"a", false}, pieces);
    prefixed.split({"b c", true}, pieces);
    QCOMPARE(pieces.size(), size_t(2));
    QCOMPARE(QString::fromStdString(pieces[0].text), "Ġa");
    QVERIFY(!pieces[0].atStart);
    QCOMPARE(QString::fromStdString(pieces[1].text), "ĠbĠc");
    QVERIFY(pieces[1].atStart);
}

HEADLENS_TEST_APPLESS_MAIN(TestByteLevelPreTokenizer)
#include "tst_bytelevelpretokenizer.moc"
