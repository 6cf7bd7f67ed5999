// Tests of ModelCatalog: the Hugging Face cache's snapshots found and described, nothing loaded.
#include "hfcache.h"

#include "model/modelcatalog.h"
#include "testmain.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace headlens;
using headlens::test::cacheModel;
namespace fs = std::filesystem;

namespace {

const QString kData = QStringLiteral(HEADLENS_TEST_DATA);

} // namespace

class TestModelCatalog : public QObject
{
    Q_OBJECT

private slots:
    void listsEverySnapshotWithItsSizes();
    void saysWhyAModelCannotOpen();
    void findsTheCacheAsHuggingFaceDoes();
    void anEmptyCacheSaysWhereItLooked();
};

void TestModelCatalog::listsEverySnapshotWithItsSizes()
{
    QTemporaryDir cache;
    cacheModel(cache.path(), "models--tiny--llama-gqa", kData + "/llama/llama_gqa", {"abc", "def"},
               "def");
    cacheModel(cache.path(), "models--org--qwen3-tiny", kData + "/llama/qwen3_qknorm", {"111"}, "");
    const std::vector<CatalogEntry> entries = ModelCatalog::list(cache.path().toStdString());
    QCOMPARE(entries.size(), size_t(2)); // refs/main picks one of llama's two revisions
    const CatalogEntry &qwen = entries[0], &llama = entries[1];
    QCOMPARE(QString::fromStdString(qwen.name), QStringLiteral("org/qwen3-tiny"));
    QCOMPARE(QString::fromStdString(llama.name), QStringLiteral("tiny/llama-gqa"));
    QVERIFY(QString::fromStdString(llama.path).endsWith("snapshots/def"));
    QCOMPARE(QString::fromStdString(llama.architecture), QStringLiteral("Llama"));
    QCOMPARE(QString::fromStdString(qwen.architecture), QStringLiteral("Qwen3"));
    QCOMPARE(llama.dtype, std::string("F32"));
    QCOMPARE(llama.bytesOnDisk,
             uint64_t(QFileInfo(kData + "/llama/llama_gqa/model.safetensors").size()));
    // 357 x 32 embedding and lm_head; per layer two norms, q (32 rows), k and v (16 each: 2 K/V
    // heads of 8), o, and gate, up, down (48 x 32); the final norm.
    const int64_t d = 32, layer = d + 32 * d + 2 * 16 * d + d * 32 + d + 3 * 48 * d;
    QCOMPARE(llama.parameters, 2 * 357 * d + 2 * layer + d);
    QVERIFY2(llama.problem.empty() && qwen.problem.empty(), llama.problem.c_str());
    const QString table = QString::fromStdString(ModelCatalog::table(entries, "/cache"));
    QVERIFY2(table.contains("tiny/llama-gqa") && table.contains("Llama") && table.contains("F32"),
             qPrintable(table));
}

void TestModelCatalog::saysWhyAModelCannotOpen()
{
    QTemporaryDir cache;
    cacheModel(cache.path(), "models--x--bin-only", kData + "/llama/mistral_window", {"r"}, "r");
    const fs::path snapshot =
        fs::path(cache.path().toStdString()) / "models--x--bin-only" / "snapshots" / "r";
    fs::remove(snapshot / "model.safetensors");
    QFile bin(QString::fromStdString((snapshot / "pytorch_model.bin").string()));
    QVERIFY(bin.open(QIODevice::WriteOnly));
    const std::vector<CatalogEntry> entries = ModelCatalog::list(cache.path().toStdString());
    QCOMPARE(entries.size(), size_t(1));
    QCOMPARE(QString::fromStdString(entries[0].architecture), QStringLiteral("Mistral"));
    QVERIFY2(QString::fromStdString(entries[0].problem).contains("only pytorch_model.bin"),
             entries[0].problem.c_str());
    QVERIFY(QString::fromStdString(ModelCatalog::table(entries, "/c")).contains("cannot open:"));
}

void TestModelCatalog::findsTheCacheAsHuggingFaceDoes()
{
    qputenv("HF_HUB_CACHE", "/hub/cache");
    qputenv("HF_HOME", "/hf/home");
    QCOMPARE(ModelCatalog::cacheFolder(), std::string("/hub/cache"));
    qunsetenv("HF_HUB_CACHE");
    QCOMPARE(ModelCatalog::cacheFolder(), std::string("/hf/home/hub"));
    qunsetenv("HF_HOME");
    qputenv("HOME", "/home/u");
    QCOMPARE(ModelCatalog::cacheFolder(), std::string("/home/u/.cache/huggingface/hub"));
}

void TestModelCatalog::anEmptyCacheSaysWhereItLooked()
{
    const std::vector<CatalogEntry> none = ModelCatalog::list("/nonexistent/hub");
    QVERIFY(none.empty());
    const QString table = QString::fromStdString(ModelCatalog::table(none, "/nonexistent/hub"));
    QVERIFY2(table.contains("No models in the Hugging Face cache (/nonexistent/hub)") &&
                 table.contains("--model DIR"),
             qPrintable(table));
}

HEADLENS_TEST_APPLESS_MAIN(TestModelCatalog)
#include "tst_modelcatalog.moc"
