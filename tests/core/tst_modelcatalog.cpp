// Tests of ModelCatalog: the Hugging Face cache's snapshots found and described, nothing loaded.
#include "hfcache.h"

#include "model/ggufplaces.h"
#include "model/modelcatalog.h"
#include "model/modelopener.h"
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
    void findsGgufFilesWhereEachToolKeepsThem();
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

/// The places of Ollama, LM Studio, llama.cpp and a Hugging Face "-GGUF" repository, made as
/// each tool lays them out: every file found, named as the tool names it, described from its
/// header, and one that HeadLens cannot run says why.
void TestModelCatalog::findsGgufFilesWhereEachToolKeepsThem()
{
    QTemporaryDir home;
    const fs::path root = home.path().toStdString();
    const std::string gguf = HEADLENS_TEST_DATA "/gguf/";
    qputenv("HOME", home.path().toUtf8());
    qunsetenv("OLLAMA_MODELS");
    qunsetenv("XDG_CACHE_HOME");
    qputenv("LLAMA_CACHE", (home.path() + "/llamacpp").toUtf8());
    // Ollama: a manifest naming the model layer's digest, the blob under blobs/.
    const fs::path ollama = root / ".ollama" / "models";
    fs::create_directories(ollama / "manifests/registry.ollama.ai/library/tiny");
    fs::create_directories(ollama / "blobs");
    fs::copy_file(gguf + "llama_wide_q4_k.gguf", ollama / "blobs" / "sha256-0a1b");
    QFile manifest(QString::fromStdString(
        (ollama / "manifests/registry.ollama.ai/library/tiny/q4_k").string()));
    QVERIFY(manifest.open(QIODevice::WriteOnly));
    manifest.write(R"({"schemaVersion": 2, "layers": [
        {"mediaType": "application/vnd.ollama.image.template", "digest": "sha256:ffff"},
        {"mediaType": "application/vnd.ollama.image.model", "digest": "sha256:0a1b"}]})");
    manifest.close();
    // LM Studio: publisher/repository/file.gguf.
    fs::create_directories(root / ".lmstudio/models/pub/tiny-GGUF");
    fs::copy_file(gguf + "llama_tiny_q8_0.gguf", root / ".lmstudio/models/pub/tiny-GGUF/t.gguf");
    // llama.cpp's cache: files as `llama-cli -hf` names them; one it cannot run.
    fs::create_directories(root / "llamacpp");
    fs::copy_file(gguf + "qwen2_tiny_f32.gguf", root / "llamacpp/org_qwen2-tiny.gguf");
    fs::copy_file(gguf + "quants.gguf", root / "llamacpp/quants.gguf");

    const std::vector<CatalogEntry> found = GgufPlaces::list();
    QCOMPARE(found.size(), size_t(4));
    // Sorted by the tool, then the name.
    QCOMPARE(QString::fromStdString(found[0].source), QString("LM Studio"));
    QCOMPARE(QString::fromStdString(found[0].name), QString("pub/tiny-GGUF/t.gguf"));
    QCOMPARE(QString::fromStdString(found[0].dtype), QString("Q8_0 + F32"));
    QCOMPARE(QString::fromStdString(found[1].source), QString("Ollama"));
    QCOMPARE(QString::fromStdString(found[1].name), QString("tiny:q4_k"));
    QCOMPARE(found[1].path, (ollama / "blobs" / "sha256-0a1b").string());
    QCOMPARE(QString::fromStdString(found[1].architecture), QString("Llama"));
    QCOMPARE(found[1].bytesOnDisk, uint64_t(fs::file_size(gguf + "llama_wide_q4_k.gguf")));
    QVERIFY2(found[1].problem.empty(), found[1].problem.c_str());
    QCOMPARE(QString::fromStdString(found[2].name), QString("org_qwen2-tiny.gguf"));
    QCOMPARE(QString::fromStdString(found[2].architecture), QString("Qwen2"));
    QCOMPARE(QString::fromStdString(found[3].source), QString("llama.cpp"));
    QVERIFY2(QString::fromStdString(found[3].problem)
                 .contains("general.architecture is \"none\", which HeadLens does not run"),
             found[3].problem.c_str());
    // What the catalog lists opens: Ollama's blob has no .gguf in its name.
    QCOMPARE(ModelOpener::open(found[1].path)->layers(), 1);

    // A Hugging Face repository of GGUF files: one entry per file.
    QTemporaryDir cache, files;
    QVERIFY(QFile::copy(QString::fromStdString(gguf + "llama_tiny_q4_0.gguf"),
                        files.filePath("tiny-q4_0.gguf")));
    cacheModel(cache.path(), "models--org--tiny-GGUF", files.path(), {"r1"}, "r1");
    const std::vector<CatalogEntry> hub = ModelCatalog::list(cache.path().toStdString());
    QCOMPARE(hub.size(), size_t(1));
    QCOMPARE(QString::fromStdString(hub[0].name), QString("org/tiny-GGUF/tiny-q4_0.gguf"));
    QCOMPARE(QString::fromStdString(hub[0].dtype), QString("Q4_0 + F32"));
    QVERIFY2(hub[0].problem.empty(), hub[0].problem.c_str());

    const QString table =
        QString::fromStdString(ModelCatalog::table(ModelCatalog::listEverywhere(), "/hub"));
    QVERIFY2(table.contains("Ollama's GGUF models:\n  tiny:q4_k") &&
                 table.contains("LM Studio's GGUF models:") &&
                 table.contains("llama.cpp's GGUF models:"),
             qPrintable(table));
}

HEADLENS_TEST_APPLESS_MAIN(TestModelCatalog)
#include "tst_modelcatalog.moc"
