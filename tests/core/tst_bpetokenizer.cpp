// Tests of BpeTokenizer: encoder.py's encodings, GPT-2's real ids, labels, and refused files.
#include "approx.h"
#include "errorof.h"
#include "validutf8.h"

#include "folderfiles.h"
#include "testmain.h"
#include "text/bpetokenizer.h"
#include "util/inputerror.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace headlens;
using headlens::test::errorOf;

namespace {

const QString kData = QStringLiteral(HEADLENS_TEST_DATA "/gpt2/");

BpeTokenizer tiny()
{
    return BpeTokenizer::load((kData + "tiny/vocab.json").toStdString(),
                              (kData + "tiny/merges.txt").toStdString());
}

} // namespace

class TestBpeTokenizer : public QObject
{
    Q_OBJECT

private slots:
    void matchesEncoderPy_data();
    void matchesEncoderPy();
    void realGpt2Ids_data();
    void realGpt2Ids();
    void preTokenizes_data();
    void preTokenizes();
    void displayLabels_data();
    void displayLabels();
    void repairsInvalidUtf8();
    void refusesMalformedFiles_data();
    void refusesMalformedFiles();
    void refusalOfInvalidBytesIsValidUtf8();
};

void TestBpeTokenizer::matchesEncoderPy_data()
{
    // bpe_golden.json: OpenAI's encoder.py logic (with the `regex` module) run by
    // scripts/make_gpt2_tiny.py on tiny/vocab.json and tiny/merges.txt.
    QTest::addColumn<QString>("text");
    QTest::addColumn<std::vector<int>>("ids");
    const QJsonArray cases =
        QJsonDocument::fromJson(test::readFile(kData + "bpe_golden.json")).array();
    QVERIFY(cases.size() >= 15);
    for (const QJsonValue &value : cases) {
        std::vector<int> ids;
        for (const QJsonValue &id : value["ids"].toArray())
            ids.push_back(id.toInt());
        const QString text = value["text"].toString();
        QTest::newRow(qPrintable(text.left(30).toUtf8().toPercentEncoding(" ,.'!?")))
            << text << ids;
    }
}

void TestBpeTokenizer::matchesEncoderPy()
{
    QFETCH(QString, text);
    QFETCH(std::vector<int>, ids);
    const BpeTokenizer tokenizer = tiny();
    QCOMPARE(tokenizer.encode(text.toStdString()), ids);
    QCOMPARE(QString::fromStdString(tokenizer.decode(ids)), text);
}

void TestBpeTokenizer::realGpt2Ids_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<std::vector<int>>("ids");
    QTest::newRow("Hello world") << "Hello world" << std::vector<int>{15496, 995};
    QTest::newRow(" Hello world") << " Hello world" << std::vector<int>{18435, 995};
    QTest::newRow("Hello, world") << "Hello, world" << std::vector<int>{15496, 11, 995};
}

void TestBpeTokenizer::realGpt2Ids()
{
    // What this checks: with a vocabulary that gives "Hello", "ĠHello", "Ġworld" GPT-2's real ids
    // (and the 256 byte tokens GPT-2's ids 0..255, so "," is 11), these three texts encode to
    // the ids the real GPT-2 tokenizer gives. The merges in realids/merges.txt are ours (built
    // to produce those words), not GPT-2's 50000; the real vocabulary is not available offline.
    QFETCH(QString, text);
    QFETCH(std::vector<int>, ids);
    const BpeTokenizer tokenizer = BpeTokenizer::load((kData + "realids/vocab.json").toStdString(),
                                                      (kData + "realids/merges.txt").toStdString());
    QCOMPARE(tokenizer.encode(text.toStdString()), ids);
}

void TestBpeTokenizer::preTokenizes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("pieces");
    QTest::newRow("contraction") << "I'm here" << QStringList{"I", "'m", " here"};
    QTest::newRow("spaces before a word")
        << "a   b" << QStringList{"a", "  ", " b"}; // \s+(?!\S) leaves one space for " b"
    QTest::newRow("numbers and punctuation")
        << "x=12.5!" << QStringList{"x", "=", "12", ".", "5", "!"};
    QTest::newRow("accents are letters") << "café" << QStringList{"café"};
    QTest::newRow("CJK") << "我爱" << QStringList{"我爱"};
    QTest::newRow("trailing newline") << "end\n" << QStringList{"end", "\n"};
}

void TestBpeTokenizer::preTokenizes()
{
    QFETCH(QString, text);
    QFETCH(QStringList, pieces);
    QStringList actual;
    for (const std::string &piece : tiny().preTokenize(text.toStdString()))
        actual << QString::fromStdString(piece);
    QCOMPARE(actual, pieces);
}

void TestBpeTokenizer::displayLabels_data()
{
    QTest::addColumn<QString>("symbol"); // the token as vocab.json writes it
    QTest::addColumn<QString>("label");
    QTest::newRow("space shown as ␣") << "Ġworld"
                                      << "␣world";
    QTest::newRow("newline") << "Ċ"
                             << "⏎";
    QTest::newRow("lead byte of an emoji") << "ð"       // byte f0, the first of 👍's four
                                           << "<0xF0>"; // as byte fallback spells it
    QTest::newRow("a whole é") << "Ã©"
                               << "é";
    QTest::newRow("end of text") << "<|endoftext|>"
                                 << "<|endoftext|>";
}

void TestBpeTokenizer::displayLabels()
{
    QFETCH(QString, symbol);
    QFETCH(QString, label);
    const BpeTokenizer tokenizer = tiny();
    const int id = tokenizer.idOf(symbol.toStdString());
    QVERIFY2(id >= 0, qPrintable(symbol));
    QCOMPARE(QString::fromStdString(tokenizer.displayLabel(id)), label);
    QCOMPARE(QString::fromStdString(tokenizer.displayLabel(99999)), QStringLiteral("[id 99999]"));
}

void TestBpeTokenizer::repairsInvalidUtf8()
{
    const BpeTokenizer tokenizer = tiny();
    const std::vector<int> ids = tokenizer.encode("a\xff"
                                                  "b");
    QCOMPARE(tokenizer.decode(ids), std::string("a\xEF\xBF\xBD"
                                                "b"));
}

void TestBpeTokenizer::refusesMalformedFiles_data()
{
    QTest::addColumn<QByteArray>("vocab");
    QTest::addColumn<QByteArray>("merges");
    QTest::addColumn<QString>("message");
    const QByteArray vocabText = test::readFile(kData + "tiny/vocab.json");
    const QByteArray mergesText = test::readFile(kData + "tiny/merges.txt");
    const QJsonObject vocab = QJsonDocument::fromJson(vocabText).object();
    const auto with = [&](const char *key, QJsonValue value) {
        QJsonObject changed = vocab;
        if (value.isUndefined())
            changed.remove(key);
        else
            changed[key] = value;
        return QJsonDocument(changed).toJson();
    };
    QTest::newRow("vocab not JSON") << QByteArray("{\"a\": 1") << mergesText
                                    << "vocab.json is not a JSON object of tokens and ids";
    QTest::newRow("negative id") << with("zz", -3) << mergesText
                                 << "vocab.json: token \"zz\" has the id -3";
    QTest::newRow("id not a number")
        << with("zz", "7") << mergesText << "vocab.json: token \"zz\" has the id \"7\"";
    QTest::newRow("duplicate id") << with("zz", 5) << mergesText
                                  << "which another token already has";
    QTest::newRow("missing byte") << with("!", QJsonValue::Undefined) << mergesText
                                  << "vocab.json lacks the token \"!\" for byte 33";
    QTest::newRow("not a byte symbol")
        << with("a b", 9999) << mergesText << "has a character that is not one of GPT-2's 256 byte";
    QTest::newRow("three parts") << vocabText << QByteArray("#version: 0.2\nh e\na b c\n")
                                 << "merges.txt line 3 is \"a b c\", not two tokens";
    QTest::newRow("unknown merge token") << vocabText << QByteArray("#version: 0.2\nq z\n")
                                         << "merges.txt line 2 uses the token \"qz\"";
    QTest::newRow("repeated merge")
        << vocabText << QByteArray("h e\nh e\n") << "merges.txt line 2 repeats the merge \"h e\"";
}

void TestBpeTokenizer::refusesMalformedFiles()
{
    QFETCH(QByteArray, vocab);
    QFETCH(QByteArray, merges);
    QFETCH(QString, message);
    const QString error = errorOf([&] {
        BpeTokenizer::fromText(vocab.toStdString(), merges.toStdString(), "dir/vocab.json",
                               "dir/merges.txt");
    });
    QVERIFY2(error.startsWith("dir/") && error.contains(message), qPrintable(error));
}

void TestBpeTokenizer::refusalOfInvalidBytesIsValidUtf8()
{
    // A merges.txt saved in Latin-1 (0xE9) with a stray 0xFF: the message quotes the bytes as
    // escapes, so it prints as the file holds them instead of as replacement characters.
    const std::string vocab = test::readFile(kData + "tiny/vocab.json").toStdString();
    const std::string merges = "#version: 0.2\nh e\nh\xFF \xE9"
                               "e\n";
    std::string message;
    try {
        BpeTokenizer::fromText(vocab, merges, "dir/vocab.json", "dir/merges.txt");
    } catch (const InputError &error) {
        message = error.what();
    }
    const QByteArray bytes = QByteArray::fromStdString(message);
    QVERIFY2(headlens::test::isValidUtf8(bytes), bytes.toPercentEncoding().constData());
    QVERIFY2(bytes.startsWith("dir/merges.txt line 3 uses the token \"h\\xFF\""),
             bytes.constData());
}

HEADLENS_TEST_APPLESS_MAIN(TestBpeTokenizer)
#include "tst_bpetokenizer.moc"
