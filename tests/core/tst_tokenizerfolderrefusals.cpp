// Tests of TokenizerFolder's refusals: missing and broken files and tokenizer_config.json keys.
#include "errorof.h"
#include "folderfiles.h"

#include "testmain.h"
#include "text/tokenizerfolder.h"

#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using namespace headlens::test;

namespace {

/// A small BERT vocabulary: the five special tokens, then a few words.
const QByteArray kTinyVocab = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\nworld\n##s\n.\n";

} // namespace

class TestTokenizerFolderRefusals : public QObject
{
    Q_OBJECT

private slots:
    void refuses_data();
    void refuses();
};

void TestTokenizerFolderRefusals::refuses_data()
{
    QTest::addColumn<QString>("slow");
    QTest::addColumn<QString>("file");        // the one tokenizer file written, if any
    QTest::addColumn<QByteArray>("contents"); // its contents
    QTest::addColumn<QByteArray>("config");   // tokenizer_config.json; none when empty
    QTest::addColumn<QStringList>("message");
    const QByteArray llama = readFile(HEADLENS_TEST_DATA "/tokenizers/template_pair.json");
    const QString bert = "BertWordPiece";
    QTest::newRow("no files") << bert << "" << QByteArray() << QByteArray()
                              << QStringList{"has no tokenizer.json and no vocab.txt",
                                             "HeadLens looked for tokenizer.json, then the BERT "
                                             "files vocab.txt",
                                             "Download"};
    QTest::newRow("RoBERTa without files")
        << "RobertaBpe"
        << "" << QByteArray() << QByteArray()
        << QStringList{"has no tokenizer.json and no vocab.json + merges.txt", "RoBERTa"};
    QTest::newRow("RoBERTa without merges.txt")
        << "RobertaBpe"
        << "vocab.json" << QByteArray("{}") << QByteArray()
        << QStringList{"has no tokenizer.json and lacks merges.txt",
                       "the RoBERTa files vocab.json + merges.txt"};
    QTest::newRow("repeated token")
        << bert << "vocab.txt" << kTinyVocab + "hello\n"
        << QByteArray() << QStringList{"vocab.txt line 10 repeats the token \"hello\" of line 6"};
    QTest::newRow("two empty lines")
        << bert << "vocab.txt" << kTinyVocab + "\n\n"
        << QByteArray() << QStringList{"line 11 repeats the token \"\" of line 10"};
    QTest::newRow("Windows line breaks")
        << bert << "vocab.txt" << QByteArray("[UNK]\r\n[CLS]\r\n") << QByteArray()
        << QStringList{"vocab.txt line 1 ends in a carriage return", "Unix line breaks"};
    QTest::newRow("no [UNK]") << bert << "vocab.txt" << QByteArray("[CLS]\n[SEP]\nhello\n")
                              << QByteArray() << QStringList{"vocab.txt has no line \"[UNK]\""};
    QTest::newRow("config not JSON")
        << bert << "vocab.txt" << kTinyVocab << QByteArray("{\"do_lower_case\": ")
        << QStringList{"tokenizer_config.json is not a JSON object", "remove it"};
    QTest::newRow("flag of the wrong kind")
        << bert << "vocab.txt" << kTinyVocab << QByteArray(R"({"do_lower_case": "yes"})")
        << QStringList{"tokenizer_config.json: do_lower_case is \"yes\", not true or false."};
    QTest::newRow("token of the wrong kind")
        << bert << "vocab.txt" << kTinyVocab << QByteArray(R"({"mask_token": 5})")
        << QStringList{"tokenizer_config.json: mask_token is 5, not a token's text"};
    QTest::newRow("token object without content")
        << bert << "vocab.txt" << kTinyVocab << QByteArray(R"({"mask_token": {"lstrip": true}})")
        << QStringList{"tokenizer_config.json: mask_token.content is missing"};
    QTest::newRow("no unknown token")
        << bert << "vocab.txt" << kTinyVocab << QByteArray(R"({"unk_token": null})")
        << QStringList{"tokenizer_config.json: unk_token is null, but BERT's tokenizer needs it"};
    QTest::newRow("unknown token not in vocab.txt")
        << bert << "vocab.txt" << kTinyVocab << QByteArray(R"({"unk_token": "[OOV]"})")
        << QStringList{"vocab.txt has no line \"[OOV]\"", "(unk_token of"};
    QTest::newRow("add_bos_token of the wrong kind")
        << bert << "tokenizer.json" << llama << QByteArray(R"({"add_bos_token": "true"})")
        << QStringList{"tokenizer_config.json: add_bos_token is \"true\", not true or false."};
    QTest::newRow("bos_token the tokenizer lacks")
        << bert << "tokenizer.json" << llama
        << QByteArray(R"({"add_bos_token": true, "bos_token": "<bos>"})")
        << QStringList{"tokenizer_config.json: bos_token is \"<bos>\" (for add_bos_token), "
                       "which the tokenizer has no token for."};
    QTest::newRow("eos_token null")
        << bert << "tokenizer.json" << llama
        << QByteArray(R"({"add_eos_token": true, "eos_token": null})")
        << QStringList{"tokenizer_config.json: eos_token is null, but add_eos_token is true"};
}

void TestTokenizerFolderRefusals::refuses()
{
    QFETCH(QString, slow);
    QFETCH(QString, file);
    QFETCH(QByteArray, contents);
    QFETCH(QByteArray, config);
    QFETCH(QStringList, message);
    QTemporaryDir dir;
    if (!file.isEmpty())
        writeFile(dir.filePath(file), contents);
    if (!config.isEmpty())
        writeFile(dir.filePath("tokenizer_config.json"), config);
    const QString error =
        errorOf([&] { TokenizerFolder::load(dir.path().toStdString(), slowOf(slow)); });
    for (const QString &part : message)
        QVERIFY2(error.contains(part), qPrintable(error));
    QVERIFY2(error.contains(dir.path()), qPrintable(error)); // names the folder or its file
}

HEADLENS_TEST_APPLESS_MAIN(TestTokenizerFolderRefusals)
#include "tst_tokenizerfolderrefusals.moc"
