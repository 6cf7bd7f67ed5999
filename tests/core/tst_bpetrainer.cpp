// Tests of BpeTrainer and BpeTokenizerJsonWriter against Hugging Face's BpeTrainer.
#include "errorof.h"

#include "coremetatypes.h"
#include "folderfiles.h"
#include "testmain.h"
#include "text/tokenizerjson.h"
#include "text/train/bpetokenizerjsonwriter.h"
#include "text/train/bpetrainer.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace headlens;
using namespace headlens::test;

Q_DECLARE_METATYPE(BpeTrainerSettings)

namespace {

QString dataPath(const QString &name)
{
    return QStringLiteral(HEADLENS_TEST_DATA "/bpe/") + name;
}

std::vector<std::string> stringsOf(const QJsonValue &value)
{
    std::vector<std::string> strings;
    for (const QJsonValue &item : value.toArray())
        strings.push_back(item.toString().toStdString());
    return strings;
}

/// The settings a golden was made with (scripts/make_bpe_goldens.mjs).
BpeTrainerSettings settingsOf(const QJsonObject &golden)
{
    const QJsonObject json = golden["settings"].toObject();
    BpeTrainerSettings settings;
    settings.vocabularySize = json["vocab_size"].toInt();
    settings.minFrequency = static_cast<uint64_t>(json["min_frequency"].toInt());
    settings.specialTokens = stringsOf(json["special_tokens"]);
    settings.byteLevelAlphabet = json["initial_alphabet"].toString() == "ByteLevel";
    return settings;
}

BpeModel::MergeList mergesOf(const QJsonValue &value)
{
    BpeModel::MergeList merges;
    for (const QJsonValue &merge : value.toArray())
        merges.emplace_back(merge[0].toString().toStdString(), merge[1].toString().toStdString());
    return merges;
}

QStringList listOf(const std::vector<std::string> &strings)
{
    QStringList list;
    for (const std::string &string : strings)
        list << QString::fromStdString(string);
    return list;
}

/// The merges as "left right" lines, so a failure shows the first rank that differs.
QStringList linesOf(const BpeModel::MergeList &merges)
{
    QStringList lines;
    for (const auto &[left, right] : merges)
        lines << QString::fromStdString(left + " " + right);
    return lines;
}

/// `text` as HF's Tokenizer.train reads a file holding it (line by line).
BpeTrainingResult trained(const BpeTrainerSettings &settings, const std::string &text)
{
    return BpeTrainer(settings).train(std::vector<std::string>{text});
}

BpeTrainerSettings seenAlphabet(int vocabularySize, uint64_t minFrequency = 0)
{
    BpeTrainerSettings settings;
    settings.vocabularySize = vocabularySize;
    settings.minFrequency = minFrequency;
    settings.byteLevelAlphabet = false;
    return settings;
}

} // namespace

class TestBpeTrainer : public QObject
{
    Q_OBJECT

private slots:
    void matchesHuggingFace_data();
    void matchesHuggingFace();
    void handComputedMerges_data();
    void handComputedMerges();
    void refusesBadInput_data();
    void refusesBadInput();
    void saysWhenTheTextRunsOut_data();
    void saysWhenTheTextRunsOut();
    void readsTextAsFilesAreRead();
    void writtenTokenizerReadsBack();
};

void TestBpeTrainer::matchesHuggingFace_data()
{
    QTest::addColumn<QString>("golden");
    const QStringList goldens = QDir(dataPath("")).entryList({"*.json"}, QDir::Files, QDir::Name);
    QVERIFY2(goldens.size() >= 3, "tests/data/bpe lacks its goldens (make_bpe_goldens.mjs)");
    for (const QString &name : goldens)
        QTest::newRow(qPrintable(name)) << dataPath(name);
}

/// All merges in order, every id, and the ids of every test string through HeadLens's own
/// tokenizer.json reader, as HF's library gives them.
void TestBpeTrainer::matchesHuggingFace()
{
    QFETCH(QString, golden);
    const QJsonObject json = QJsonDocument::fromJson(test::readFile(golden)).object();
    const QByteArray text =
        test::readFile(QStringLiteral(HEADLENS_TEST_DATA "/") + json["text"].toString());
    const BpeTrainingResult result = trained(settingsOf(json), text.toStdString());

    QCOMPARE(linesOf(result.merges), linesOf(mergesOf(json["merges"])));
    QCOMPARE(listOf(result.tokens), listOf(stringsOf(json["vocab"])));

    QTemporaryDir dir;
    const std::string path = dir.filePath("tokenizer.json").toStdString();
    BpeTokenizerJsonWriter::write(path, result);
    const TokenizerPipeline tokenizer = TokenizerJson::load(path);
    for (const QJsonValue &sample : json["cases"].toArray()) {
        std::vector<int> expected;
        for (const QJsonValue &id : sample["ids"].toArray())
            expected.push_back(id.toInt());
        const std::string utf8 = sample["text"].toString().toStdString();
        QCOMPARE(tokenizer.encode(utf8), expected);
        // Without ByteLevel's alphabet, characters the text lacks have no token and are lost.
        if (settingsOf(json).byteLevelAlphabet)
            QCOMPARE(tokenizer.decode(expected), utf8);
    }
}

void TestBpeTrainer::handComputedMerges_data()
{
    QTest::addColumn<BpeTrainerSettings>("settings");
    QTest::addColumn<BpeModel::MergeList>("merges");
    // "aaabdaaabac" as one word, alphabet a b c d = ids 0 1 2 3. Pairs: aa 4, ab 2, bd da ba
    // ac 1 each. 1. aa (4) -> "aa" = 4: aa a b d aa a b a c; now (aa,a) 2, (d,aa) 1.
    // 2. a tie at 2: ab = (0,1) against (aa,a) = (4,0); the smaller pair wins: "ab" = 5:
    // aa ab d aa ab a c; (aa,ab) 2. 3. (aa,ab) -> "aaab" = 6: aaab d aaab a c, every pair at 1.
    // 4. the smallest pair at 1 is (a,c) = (0,2) -> "ac" = 7: aaab d aaab ac. 5. (d,aaab) =
    // (3,6) before (aaab,d) = (6,3) and (aaab,ac) = (6,7) -> "daaab" = 8: aaab daaab ac.
    // 6. (6,8) -> "aaabdaaab" before (8,7); 7. then "aaabdaaabac"; no pair is left.
    const BpeModel::MergeList all = {{"a", "a"},         {"a", "b"},    {"aa", "ab"},
                                     {"a", "c"},         {"d", "aaab"}, {"aaab", "daaab"},
                                     {"aaabdaaab", "ac"}};
    QTest::newRow("every merge") << seenAlphabet(100) << all;
    QTest::newRow("vocabulary of 7: 4 letters, 3 merges")
        << seenAlphabet(7) << BpeModel::MergeList(all.begin(), all.begin() + 3);
    // After "aaab" every pair occurs once.
    QTest::newRow("min frequency 2")
        << seenAlphabet(100, 2) << BpeModel::MergeList(all.begin(), all.begin() + 3);
    QTest::newRow("min frequency 1 is 0") << seenAlphabet(100, 1) << all;
}

void TestBpeTrainer::handComputedMerges()
{
    QFETCH(BpeTrainerSettings, settings);
    QFETCH(BpeModel::MergeList, merges);
    const BpeTrainingResult result = trained(settings, "aaabdaaabac");
    QCOMPARE(linesOf(result.merges), linesOf(merges));
    QCOMPARE(result.tokens[0], std::string("a"));
    QCOMPARE(result.tokens[3], std::string("d"));
    QCOMPARE(result.tokens.size(), 4 + merges.size());
}

void TestBpeTrainer::refusesBadInput_data()
{
    QTest::addColumn<BpeTrainerSettings>("settings");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("smaller than bytes + special")
        << BpeTrainerSettings::gpt2(256) << "hello"
        << "A vocabulary of 256 tokens cannot hold the 257 it starts with (1 special tokens and "
           "an alphabet of 256 characters): ask for at least 257.";
    QTest::newRow("smaller than the text's alphabet")
        << seenAlphabet(3) << "abcd"
        << "A vocabulary of 3 tokens cannot hold the 4 it starts "
           "with (0 special tokens and an alphabet of 4 "
           "characters): ask for at least 4.";
    QTest::newRow("no text") << BpeTrainerSettings::gpt2(300) << ""
                             << "There is no text to train the tokenizer on: give it some text.";
    QTest::newRow("zero tokens") << BpeTrainerSettings::gpt2(0) << "hello"
                                 << "The vocabulary size must be at least 1 (try 4096), got 0.";
    BpeTrainerSettings empty = BpeTrainerSettings::gpt2(300);
    empty.specialTokens.push_back("");
    QTest::newRow("empty special token")
        << empty << "hello"
        << "A special token is empty: give each one some text, such as \"<|endoftext|>\".";
    BpeTrainerSettings twice = BpeTrainerSettings::gpt2(300);
    twice.specialTokens.push_back("<|endoftext|>");
    QTest::newRow("special token twice")
        << twice << "hello"
        << "The special token \"<|endoftext|>\" is listed twice: list it once.";
}

void TestBpeTrainer::refusesBadInput()
{
    QFETCH(BpeTrainerSettings, settings);
    QFETCH(QString, text);
    QFETCH(QString, message);
    QCOMPARE(errorOf([&] { trained(settings, text.toStdString()); }), message);
}

void TestBpeTrainer::saysWhenTheTextRunsOut_data()
{
    QTest::addColumn<BpeTrainerSettings>("settings");
    QTest::addColumn<int>("stop");
    QTest::addColumn<int>("tokens");
    QTest::addColumn<QString>("message");
    // "hello hello" is "hello" and "Ġhello": 4 merges make "hello", 1 more "Ġhello".
    BpeTrainerSettings bytesOnly;
    bytesOnly.vocabularySize = 256;
    QTest::newRow("256: the bytes alone")
        << bytesOnly << int(BpeTrainingResult::Stop::VocabularyFull) << 256 << "";
    QTest::newRow("enough") << BpeTrainerSettings::gpt2(260)
                            << int(BpeTrainingResult::Stop::VocabularyFull) << 260 << "";
    QTest::newRow("no pair left")
        << BpeTrainerSettings::gpt2(4096) << int(BpeTrainingResult::Stop::NoPairLeft) << 262
        << "The vocabulary has 262 tokens, not the 4096 asked for: the text allows only 5 "
           "merges (every word is one token by then). Train on more text or ask for fewer "
           "tokens.";
    BpeTrainerSettings rare = BpeTrainerSettings::gpt2(4096);
    rare.minFrequency = 3;
    QTest::newRow("min frequency")
        << rare << int(BpeTrainingResult::Stop::MinFrequency) << 257
        << "The vocabulary has 257 tokens, not the 4096 asked for: after 0 merges, no pair of "
           "tokens occurs often enough. Lower the minimum frequency, train on more text or ask "
           "for fewer tokens.";
}

void TestBpeTrainer::saysWhenTheTextRunsOut()
{
    QFETCH(BpeTrainerSettings, settings);
    QFETCH(int, stop);
    QFETCH(int, tokens);
    QFETCH(QString, message);
    const BpeTrainingResult result = trained(settings, "hello hello");
    QCOMPARE(int(result.stop), stop);
    QCOMPARE(int(result.tokens.size()), tokens);
    QCOMPARE(QString::fromStdString(result.shortfall().value_or("")), message);
}

/// Tokenizer.train reads a file line by line, so white space before a line break stays with
/// it ("ĠĊ") instead of becoming a word of its own ("Ġ" then "Ċ").
void TestBpeTrainer::readsTextAsFilesAreRead()
{
    BpeWordCounts lines;
    lines.addLines("a \nb");
    QCOMPARE(lines.counts(), (BpeWordCounts::Counts{{"a", 1}, {"ĠĊ", 1}, {"b", 1}}));
    BpeWordCounts sequence;
    sequence.addSequence("a \nb");
    QCOMPARE(sequence.counts(), (BpeWordCounts::Counts{{"a", 1}, {"Ġ", 1}, {"Ċ", 1}, {"b", 1}}));
}

void TestBpeTrainer::writtenTokenizerReadsBack()
{
    const BpeTrainingResult result =
        trained(BpeTrainerSettings::gpt2(300), "the cat and the hat and the bat\n");
    QTemporaryDir dir;
    const std::string path = dir.filePath("tokenizer.json").toStdString();
    BpeTokenizerJsonWriter::write(path, result);
    const TokenizerPipeline tokenizer = TokenizerJson::load(path);
    QCOMPARE(tokenizer.idOf("<|endoftext|>"), 0);
    QCOMPARE(tokenizer.addedTokens().tokens().size(), size_t(1));
    QVERIFY(tokenizer.addedTokens().tokens()[0].special);
    const std::string text = "the hat<|endoftext|>zebra ☃";
    const std::vector<int> ids = tokenizer.encode(text);
    QCOMPARE(std::count(ids.begin(), ids.end(), 0), 1);
    QCOMPARE(tokenizer.decode(ids), text);
    QCOMPARE(tokenizer.idLimit(), int(result.tokens.size()));
    QCOMPARE(BpeTokenizerJsonWriter::toJson(result).back(), '\n');
    QCOMPARE(errorOf([&] {
                 BpeTokenizerJsonWriter::write(dir.filePath("no/such").toStdString(), result);
             }).left(13),
             QStringLiteral("Cannot write "));
}

HEADLENS_TEST_APPLESS_MAIN(TestBpeTrainer)
#include "tst_bpetrainer.moc"
