// Tests of SplitPreTokenizer and TextPattern: the five behaviours and invert, worked by hand.
#include "text/pipeline/splitpretokenizer.h"

#include "errorof.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;
using headlens::test::errorOf;

Q_DECLARE_METATYPE(SplitDelimiter::Behavior)

namespace {

QStringList piecesOf(const PreTokenizer &preTokenizer, const QString &text)
{
    QStringList pieces;
    for (const std::string &piece : preTokenizer.preTokenize(text.toStdString()))
        pieces << QString::fromStdString(piece);
    return pieces;
}

} // namespace

class TestSplitPreTokenizer : public QObject
{
    Q_OBJECT

private slots:
    void behaviours_data();
    void behaviours();
    void refusesPatterns_data();
    void refusesPatterns();
    void remembersTheStart();
};

void TestSplitPreTokenizer::behaviours_data()
{
    using B = SplitDelimiter::Behavior;
    QTest::addColumn<QString>("pattern"); // "re:" for a regex, else a literal
    QTest::addColumn<B>("behavior");
    QTest::addColumn<bool>("invert");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("pieces");
    // normalizer.rs's own examples, on "a-b--c".
    QTest::newRow("Removed") << "-" << B::Removed << false << "a-b--c"
                             << QStringList{"a", "b", "c"};
    QTest::newRow("Isolated") << "-" << B::Isolated << false << "a-b--c"
                              << QStringList{"a", "-", "b", "-", "-", "c"};
    QTest::newRow("MergedWithPrevious")
        << "-" << B::MergedWithPrevious << false << "a-b--c" << QStringList{"a-", "b-", "-", "c"};
    QTest::newRow("MergedWithNext")
        << "-" << B::MergedWithNext << false << "a-b--c" << QStringList{"a", "-b", "-", "-c"};
    QTest::newRow("Contiguous") << "-" << B::Contiguous << false << "a-b--c"
                                << QStringList{"a", "-", "b", "--", "c"};
    QTest::newRow("delimiter first, MergedWithPrevious")
        << "-" << B::MergedWithPrevious << false << "-a" << QStringList{"-", "a"};
    QTest::newRow("delimiter last, MergedWithNext")
        << "-" << B::MergedWithNext << false << "a-" << QStringList{"a", "-"};
    QTest::newRow("regex, Isolated")
        << "re:\\d+" << B::Isolated << false << "ab12c3" << QStringList{"ab", "12", "c", "3"};
    // invert: the matches are the pieces, the rest is the delimiter.
    QTest::newRow("inverted, Removed")
        << "re:\\p{L}+" << B::Removed << true << "ab, cd!" << QStringList{"ab", "cd"};
    QTest::newRow("inverted, MergedWithPrevious")
        << "re:\\p{L}+" << B::MergedWithPrevious << true << "ab, cd!" << QStringList{"ab, ", "cd!"};
    QTest::newRow("a multi-byte literal")
        << "▁" << B::MergedWithNext << false << "▁a▁b" << QStringList{"▁a", "▁b"};
    QTest::newRow("no match") << "-" << B::Removed << false << "abc" << QStringList{"abc"};
    QTest::newRow("empty text") << "-" << B::Isolated << false << "" << QStringList{};
}

void TestSplitPreTokenizer::behaviours()
{
    QFETCH(QString, pattern);
    QFETCH(SplitDelimiter::Behavior, behavior);
    QFETCH(bool, invert);
    QFETCH(QString, text);
    QFETCH(QStringList, pieces);
    const std::string source =
        pattern.startsWith("re:") ? pattern.mid(3).toStdString() : pattern.toStdString();
    const SplitPreTokenizer split(pattern.startsWith("re:") ? TextPattern::regex(source)
                                                            : TextPattern::literal(source),
                                  behavior, invert);
    QCOMPARE(piecesOf(split, text), pieces);
}

void TestSplitPreTokenizer::refusesPatterns_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<bool>("regex");
    QTest::addColumn<QString>("message");
    QTest::newRow("does not compile")
        << "(a" << true << "The pattern \"(a\" does not compile at character 2: ";
    QTest::newRow("matches empty text") << "x*" << true << "\"x*\" can match empty text";
    QTest::newRow("empty literal") << "" << false << "The pattern is an empty string";
}

void TestSplitPreTokenizer::refusesPatterns()
{
    QFETCH(QString, pattern);
    QFETCH(bool, regex);
    QFETCH(QString, message);
    const std::string source = pattern.toStdString();
    const QString error =
        errorOf([&] { regex ? TextPattern::regex(source) : TextPattern::literal(source); });
    QVERIFY2(error.contains(message), qPrintable(error));
}

void TestSplitPreTokenizer::remembersTheStart()
{
    // A piece begins the text only when nothing before it was removed (offsets_original().0).
    const SplitPreTokenizer split(TextPattern::literal("-"), SplitDelimiter::Behavior::Removed);
    std::vector<PreTokenizer::Piece> pieces;
    split.split({"a-b", true}, pieces);
    split.split({"-c", true}, pieces);
    QCOMPARE(pieces.size(), size_t(3));
    QVERIFY(pieces[0].atStart);
    QVERIFY(!pieces[1].atStart);
    QVERIFY(!pieces[2].atStart); // "c": the "-" before it was removed
}

HEADLENS_TEST_APPLESS_MAIN(TestSplitPreTokenizer)
#include "tst_splitpretokenizer.moc"
