// Tests of TokenizerJson's refusals: each names the file and the component, and says what to do.
#include "errorof.h"
#include "validutf8.h"

#include "testmain.h"
#include "text/tokenizerjson.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace headlens;
using headlens::test::errorOf;

namespace {

/// A valid tokenizer.json: BPE over "a", "b", "ab"; `change` is merged into it, top level.
QByteArray tokenizerWith(const QByteArray &change)
{
    QJsonObject tokenizer = QJsonDocument::fromJson(R"({"model": {"type": "BPE",
        "vocab": {"a": 0, "b": 1, "ab": 2, "<s>": 3}, "merges": ["a b"]}})")
                                .object();
    const QJsonObject changes = QJsonDocument::fromJson(change).object();
    for (auto it = changes.begin(); it != changes.end(); ++it)
        tokenizer[it.key()] = it.value();
    return QJsonDocument(tokenizer).toJson();
}

} // namespace

class TestTokenizerJsonRefusals : public QObject
{
    Q_OBJECT

private slots:
    void acceptsTheBase();
    void refuses_data();
    void refuses();
};

void TestTokenizerJsonRefusals::acceptsTheBase()
{
    const TokenizerPipeline pipeline =
        TokenizerJson::fromText(tokenizerWith("{}").toStdString(), "x");
    QCOMPARE(pipeline.encode("abba"), (std::vector<int>{2, 1, 0}));
}

void TestTokenizerJsonRefusals::refuses_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QStringList>("message"); // what the message must contain
    const auto with = [](const char *change) { return tokenizerWith(change); };
    QTest::newRow("not JSON") << QByteArray("{\"model\": ")
                              << QStringList{"bad.json is not valid JSON", "Download"};
    QTest::newRow("not an object")
        << QByteArray("[1, 2]") << QStringList{"bad.json is not a JSON object"};
    QTest::newRow("no model") << QByteArray("{}") << QStringList{"bad.json: model is missing"};
    QTest::newRow("model without vocab")
        << QByteArray(R"({"model": {"type": "BPE", "merges": []}})")
        << QStringList{"bad.json: model (BPE) has no \"vocab\""};
    QTest::newRow("unknown model")
        << QByteArray(R"({"model": {"type": "Unigram", "vocab": []}})")
        << QStringList{"bad.json: model is a model of type \"Unigram\"", "BPE, WordPiece"};
    QTest::newRow("unknown normalizer")
        << with(R"({"normalizer": {"type": "Precompiled", "precompiled_charsmap": "AA"}})")
        << QStringList{"bad.json: normalizer is a normalizer of type \"Precompiled\"", "refuses",
                       "choose"};
    QTest::newRow("unknown normalizer in a sequence")
        << with(
               R"({"normalizer": {"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "Nmt"}]}})")
        << QStringList{"bad.json: normalizer.normalizers[1] is a normalizer of type \"Nmt\""};
    QTest::newRow("unknown pre-tokenizer")
        << with(R"({"pre_tokenizer": {"type": "UnicodeScripts"}})")
        << QStringList{"bad.json: pre_tokenizer is a pre-tokenizer of type \"UnicodeScripts\""};
    QTest::newRow("unknown decoder")
        << with(R"({"decoder": {"type": "CTC"}})")
        << QStringList{"bad.json: decoder is a decoder of type \"CTC\""};
    QTest::newRow("unknown post-processor")
        << with(R"({"post_processor": {"type": "Magic"}})")
        << QStringList{"bad.json: post_processor is a post-processor of type \"Magic\""};
    QTest::newRow("component without a type") << with(R"({"decoder": {"prefix": "##"}})")
                                              << QStringList{"bad.json: decoder has no \"type\""};
    QTest::newRow("unknown behaviour")
        << with(
               R"({"pre_tokenizer": {"type": "Split", "pattern": {"String": "-"}, "behavior": "Sideways", "invert": false}})")
        << QStringList{"bad.json: pre_tokenizer (Split) has \"behavior\": \"Sideways\"",
                       "Contiguous"};
    QTest::newRow("pattern matching empty text")
        << with(
               R"({"pre_tokenizer": {"type": "Split", "pattern": {"Regex": "a*"}, "behavior": "Isolated"}})")
        << QStringList{"bad.json: pre_tokenizer.pattern cannot be used", "can match empty text"};
    QTest::newRow("unknown prepend scheme")
        << with(
               R"({"pre_tokenizer": {"type": "Metaspace", "replacement": "_", "prepend_scheme": "sometimes"}})")
        << QStringList{"bad.json: pre_tokenizer (Metaspace) has \"prepend_scheme\": \"sometimes\""};
    QTest::newRow("metaspace first after Strip")
        << with(R"({"normalizer": {"type": "Strip", "strip_left": true, "strip_right": true},
                    "pre_tokenizer": {"type": "Metaspace", "replacement": "_", "prepend_scheme": "first"}})")
        << QStringList{"bad.json: pre_tokenizer has a Metaspace with prepend_scheme \"first\""};
    QTest::newRow("dropout")
        << QByteArray(
               R"({"model": {"type": "BPE", "dropout": 0.1, "vocab": {"a": 0}, "merges": []}})")
        << QStringList{"bad.json: model (BPE) has \"dropout\": 0.1", "random"};
    QTest::newRow("merge outside the vocabulary")
        << QByteArray(
               R"({"model": {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": [["a", "b"]]}})")
        << QStringList{"bad.json: model.merges[0] uses the token \"ab\""};
    QTest::newRow("unk outside the vocabulary")
        << QByteArray(
               R"({"model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"a": 0}}})")
        << QStringList{"bad.json: model.unk_token is \"[UNK]\""};
    QTest::newRow("a repeated id")
        << QByteArray(R"({"model": {"type": "WordPiece", "vocab": {"[UNK]": 0, "a": 0}}})")
        << QStringList{"bad.json: model.vocab token", "Ids must be unique"};
    QTest::newRow("added token with another id")
        << with(R"({"added_tokens": [{"id": 7, "content": "<s>", "special": true}]})")
        << QStringList{"bad.json: added_tokens[0] gives \"<s>\" the id 7", "gives it 3"};
    QTest::newRow("template naming a missing token")
        << with(
               R"({"post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
                    "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}], "special_tokens": {}}})")
        << QStringList{"bad.json: post_processor.special_tokens has no entry for \"<s>\""};
    QTest::newRow("post-processor adding an unknown id")
        << with(
               R"({"post_processor": {"type": "BertProcessing", "sep": ["[SEP]", 102], "cls": ["[CLS]", 101]}})")
        << QStringList{"bad.json: post_processor adds the id 101"};
    QTest::newRow("invalid UTF-8 quoted safely")
        << with("{\"normalizer\": {\"type\": \"Caf\\u00e9\\u0001\"}}")
        << QStringList{"\"Café\\x01\""};
}

void TestTokenizerJsonRefusals::refuses()
{
    QFETCH(QByteArray, json);
    QFETCH(QStringList, message);
    const QString error = errorOf([&] { TokenizerJson::fromText(json.toStdString(), "bad.json"); });
    for (const QString &part : message)
        QVERIFY2(error.contains(part), qPrintable(error));
    QVERIFY(headlens::test::isValidUtf8(error.toUtf8()));
}

HEADLENS_TEST_APPLESS_MAIN(TestTokenizerJsonRefusals)
#include "tst_tokenizerjsonrefusals.moc"
