// Tests of BpeModel and BpeWord: merges applied in rank order on hand-made vocabularies.
#include "coremetatypes.h"
#include "testmain.h"
#include "text/pipeline/bpemodel.h"

#include <QTest>

#include <algorithm>
#include <random>

using namespace headlens;

namespace {

/// Letters, the merges' results and one token per id, so ids are easy to read in the rows.
BpeModel model(const BpeModel::MergeList &merges)
{
    BpeModel::Vocabulary vocabulary;
    for (const char *token : {"a", "b", "c", "e", "l", "o", "r", "s", "t", "w"})
        vocabulary.emplace(token, static_cast<int>(vocabulary.size()));
    for (const auto &[left, right] : merges)
        vocabulary.emplace(left + right, static_cast<int>(vocabulary.size()));
    return BpeModel(vocabulary, merges);
}

QStringList tokensOf(const BpeModel &bpe, const std::string &piece)
{
    std::vector<int> ids;
    bpe.tokenize(piece, ids);
    QStringList tokens;
    for (int id : ids)
        tokens << QString::fromStdString(*bpe.tokenOf(id));
    return tokens;
}

/// openai/gpt-2 src/encoder.py bpe(), written plainly on strings: merge every occurrence of
/// the lowest-ranked adjacent pair, left to right, until none is a merge.
QStringList encoderPy(const BpeModel::MergeList &merges, const std::string &piece)
{
    std::vector<std::string> word;
    for (char c : piece)
        word.emplace_back(1, c);
    while (word.size() > 1) {
        size_t best = merges.size();
        for (size_t i = 0; i + 1 < word.size(); ++i)
            for (size_t rank = 0; rank < best; ++rank)
                if (merges[rank].first == word[i] && merges[rank].second == word[i + 1])
                    best = rank;
        if (best == merges.size())
            break;
        std::vector<std::string> merged;
        for (size_t i = 0; i < word.size(); ++i) {
            if (i + 1 < word.size() && word[i] == merges[best].first &&
                word[i + 1] == merges[best].second) {
                merged.push_back(word[i] + word[i + 1]);
                ++i;
            } else {
                merged.push_back(word[i]);
            }
        }
        word.swap(merged);
    }
    QStringList tokens;
    for (const std::string &token : word)
        tokens << QString::fromStdString(token);
    return tokens;
}

} // namespace

class TestBpeModel : public QObject
{
    Q_OBJECT

private slots:
    void mergesInRankOrder_data();
    void mergesInRankOrder();
    void agreesWithEncoderPyOnRandomWords();
    void vocabularyLookups();
    void options_data();
    void options();
};

void TestBpeModel::mergesInRankOrder_data()
{
    QTest::addColumn<BpeModel::MergeList>("merges");
    QTest::addColumn<QString>("piece");
    QTest::addColumn<QStringList>("tokens");
    // Sennrich et al. 2016's example: "lowest" = l o w e s t; e s (0) -> es, es t (1) -> est,
    // l o (2) -> lo, lo w (3) -> low; "low est" is no merge, so two tokens are left.
    const BpeModel::MergeList lowest{{"e", "s"}, {"es", "t"}, {"l", "o"}, {"lo", "w"}};
    QTest::newRow("lowest") << lowest << "lowest" << QStringList{"low", "est"};
    QTest::newRow("no merge applies") << lowest << "tab" << QStringList{"t", "a", "b"};
    QTest::newRow("one symbol") << lowest << "w" << QStringList{"w"};
    QTest::newRow("empty") << lowest << "" << QStringList{};
    // r e s: (e s) ranks first, so "re" can no longer form.
    QTest::newRow("lower rank wins")
        << BpeModel::MergeList{{"e", "s"}, {"r", "e"}} << "res" << QStringList{"r", "es"};
    QTest::newRow("other order") << BpeModel::MergeList{{"r", "e"}, {"e", "s"}} << "res"
                                 << QStringList{"re", "s"};
    // a a a: the leftmost pair merges first, the third a is left alone.
    QTest::newRow("leftmost first")
        << BpeModel::MergeList{{"a", "a"}} << "aaa" << QStringList{"aa", "a"};
    QTest::newRow("then the new pairs")
        << BpeModel::MergeList{{"a", "a"}, {"aa", "aa"}} << "aaaaa" << QStringList{"aaaa", "a"};
}

void TestBpeModel::mergesInRankOrder()
{
    QFETCH(BpeModel::MergeList, merges);
    QFETCH(QString, piece);
    QFETCH(QStringList, tokens);
    QCOMPARE(tokensOf(model(merges), piece.toStdString()), tokens);
    QCOMPARE(encoderPy(merges, piece.toStdString()), tokens); // the reference agrees
}

void TestBpeModel::agreesWithEncoderPyOnRandomWords()
{
    // Merges as training makes them (each part is a letter or an earlier merge's result),
    // then words of up to 40 letters: the heap-ordered merge gives encoder.py's tokens.
    std::mt19937 random(7); // only the engine, whose sequence the standard fixes
    const std::string letters = "abc";
    std::vector<std::string> made{"a", "b", "c"};
    BpeModel::MergeList merges;
    while (merges.size() < 30) {
        const std::string left = made[random() % made.size()], right = made[random() % made.size()];
        if (std::find(made.begin(), made.end(), left + right) != made.end())
            continue;
        merges.emplace_back(left, right);
        made.push_back(left + right);
    }
    BpeModel::Vocabulary vocabulary;
    for (const std::string &token : made)
        vocabulary.emplace(token, static_cast<int>(vocabulary.size()));
    const BpeModel bpe(vocabulary, merges);
    for (int i = 0; i < 2000; ++i) {
        std::string word;
        for (size_t length = random() % 41; word.size() < length;)
            word += letters[random() % letters.size()];
        QCOMPARE(tokensOf(bpe, word), encoderPy(merges, word));
    }
}

void TestBpeModel::vocabularyLookups()
{
    const BpeModel bpe(BpeModel::Vocabulary{{"a", 0}, {"b", 5}, {"ab", 2}}, {{"a", "b"}});
    QCOMPARE(bpe.idOf("ab"), 2);
    QCOMPARE(bpe.idOf("ba"), -1);
    QCOMPARE(*bpe.tokenOf(5), std::string("b"));
    QVERIFY(!bpe.tokenOf(3)); // a gap
    QVERIFY(!bpe.tokenOf(6) && !bpe.tokenOf(-1));
    QCOMPARE(bpe.idLimit(), 6);
    QCOMPARE(bpe.size(), 3);
    std::vector<int> ids;
    bpe.tokenize("abxa", ids); // x is not in the vocabulary: dropped, as model.rs without unk
    QCOMPARE(ids, (std::vector<int>{2, 0}));
}

void TestBpeModel::options_data()
{
    // models/bpe/model.rs merge_word and tokenize_with_cache, ids worked out by hand.
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("piece");
    QTest::addColumn<std::vector<int>>("ids");
    // "é" is missing: its bytes C3 A9 become <0xC3> <0xA9> (ids 3 and 4).
    QTest::newRow("byte fallback") << "byteFallback"
                                   << "aé" << std::vector<int>{0, 3, 4};
    QTest::newRow("unk, one per character") << "unk"
                                            << "aéü" << std::vector<int>{0, 5, 5};
    QTest::newRow("unk fused") << "fuseUnk"
                               << "aéüb" << std::vector<int>{0, 5, 1};
    // "aba" is in the vocabulary but no merge makes it: with ignore_merges it is one token.
    QTest::newRow("ignore merges") << "ignoreMerges"
                                   << "aba" << std::vector<int>{7};
    QTest::newRow("merges without ignore_merges") << "unk"
                                                  << "aba" << std::vector<int>{2, 0};
    QTest::newRow("ignore merges, not a word") << "ignoreMerges"
                                               << "abab" << std::vector<int>{2, 2};
    // "a" "##b" "##a</w>" -> merge (a, ##b) = "ab" -> "ab" "##a</w>".
    QTest::newRow("prefix and suffix") << "prefix"
                                       << "aba" << std::vector<int>{8, 10};
}

void TestBpeModel::options()
{
    QFETCH(QString, option);
    QFETCH(QString, piece);
    QFETCH(std::vector<int>, ids);
    BpeModel::Vocabulary vocabulary{{"a", 0},      {"b", 1},     {"ab", 2},     {"<0xC3>", 3},
                                    {"<0xA9>", 4}, {"<unk>", 5}, {"<0xC2>", 6}, {"aba", 7}};
    BpeModel::MergeList merges{{"a", "b"}};
    BpeModel::Options options;
    options.byteFallback = option == "byteFallback";
    options.ignoreMerges = option == "ignoreMerges";
    options.fuseUnk = option == "fuseUnk";
    if (option == "unk" || option == "fuseUnk")
        options.unkToken = "<unk>";
    if (option == "prefix") {
        vocabulary = {{"a", 0}, {"##b", 1}, {"##a</w>", 10}, {"ab", 8}};
        merges = {{"a", "##b"}};
        options.continuingSubwordPrefix = "##";
        options.endOfWordSuffix = "</w>";
    }
    const BpeModel bpe(vocabulary, merges, options);
    std::vector<int> actual;
    bpe.tokenize(piece.toStdString(), actual);
    QCOMPARE(actual, ids);
}

HEADLENS_TEST_APPLESS_MAIN(TestBpeModel)
#include "tst_bpemodel.moc"
