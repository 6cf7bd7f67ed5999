// tst_modelpicker: File > Open model lists the cache's models, greys what cannot open, opens one.
#include "hfcache.h"

#include "models/modelpicker.h"
#include "testmain.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace headlens;
using headlens::test::cacheModel;

namespace {

const QString kLlama = QStringLiteral(HEADLENS_TEST_DATA "/llama/");

QPushButton *button(const ModelPicker &picker, const QString &text)
{
    for (QPushButton *b : picker.findChildren<QPushButton *>())
        if (b->text() == text)
            return b;
    return nullptr;
}

} // namespace

class TestModelPicker : public QObject
{
    Q_OBJECT

private slots:
    /// The GGUF places (GgufPlaces) under a HOME of the test's own: nothing of this machine's.
    void initTestCase()
    {
        qputenv("HOME", m_home.path().toUtf8());
        qunsetenv("OLLAMA_MODELS");
        qunsetenv("LLAMA_CACHE");
        qunsetenv("XDG_CACHE_HOME");
    }
    void listsTheCacheAndOpensAModel();
    void anEmptyCacheSaysSo();
    void listsOllamasModelsBesideTheCache();

private:
    QTemporaryDir m_home;
};

void TestModelPicker::listsTheCacheAndOpensAModel()
{
    QTemporaryDir cache;
    cacheModel(cache.path(), "models--tiny--qwen2", kLlama + "qwen2_bias", {"r1"}, "r1");
    cacheModel(cache.path(), "models--tiny--broken", kLlama + "llama_gqa", {"r2"}, "r2");
    std::filesystem::remove(cache.path().toStdString() +
                            "/models--tiny--broken/snapshots/r2/model.safetensors");
    ModelPicker picker(nullptr, cache.path());
    QSignalSpy listed(&picker, &ModelPicker::listed);
    QVERIFY(listed.wait(20000)); // the cache is read on a pool thread
    QTableWidget *table = picker.table();
    QCOMPARE(table->rowCount(), 2);
    // Sorted by name: the broken llama first, greyed, with the reason; then the Qwen2.
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("tiny/broken"));
    QVERIFY(!(table->item(0, 0)->flags() & Qt::ItemIsEnabled));
    QVERIFY2(table->item(0, 6)->text().contains("Cannot open") &&
                 table->item(0, 6)->text().contains("model.safetensors"),
             qPrintable(table->item(0, 6)->text()));
    QCOMPARE(table->item(1, 0)->text(), QStringLiteral("tiny/qwen2"));
    QCOMPARE(table->item(1, 1)->text(), QStringLiteral("Hugging Face"));
    QCOMPARE(table->item(1, 2)->text(), QStringLiteral("Qwen2"));
    QCOMPARE(table->item(1, 4)->text(), QStringLiteral("F32"));
    QVERIFY(table->item(1, 0)->flags() & Qt::ItemIsEnabled);

    QPushButton *open = button(picker, "Open");
    QVERIFY(open);
    table->selectRow(0);
    QVERIFY(!open->isEnabled());
    table->selectRow(1);
    QVERIFY(open->isEnabled());
    open->click();
    QCOMPARE(picker.result(), int(QDialog::Accepted));
    QVERIFY2(picker.chosenPath().endsWith("models--tiny--qwen2/snapshots/r1"),
             qPrintable(picker.chosenPath()));
}

void TestModelPicker::anEmptyCacheSaysSo()
{
    QTemporaryDir cache;
    ModelPicker picker(nullptr, cache.path());
    QSignalSpy listed(&picker, &ModelPicker::listed);
    QVERIFY(listed.wait(20000));
    QCOMPARE(picker.table()->rowCount(), 0);
    bool said = false;
    for (QLabel *label : picker.findChildren<QLabel *>())
        said = said || (label->text().contains("No models in the Hugging Face cache") &&
                        label->text().contains("Another folder"));
    QVERIFY(said);
}

/// A model Ollama pulled is listed after the cache's, and Open gives its blob.
void TestModelPicker::listsOllamasModelsBesideTheCache()
{
    namespace fs = std::filesystem;
    const fs::path models = fs::path(m_home.path().toStdString()) / ".ollama" / "models";
    fs::create_directories(models / "manifests/registry.ollama.ai/library/tiny");
    fs::create_directories(models / "blobs");
    fs::copy_file(HEADLENS_TEST_DATA "/gguf/llama_tiny_q4_0.gguf", models / "blobs/sha256-12ab");
    QFile manifest(QString::fromStdString(
        (models / "manifests/registry.ollama.ai/library/tiny/latest").string()));
    QVERIFY(manifest.open(QIODevice::WriteOnly));
    manifest.write(R"({"layers": [{"mediaType": "application/vnd.ollama.image.model",
                                   "digest": "sha256:12ab"}]})");
    manifest.close();
    QTemporaryDir cache;
    cacheModel(cache.path(), "models--tiny--qwen2", kLlama + "qwen2_bias", {"r1"}, "r1");
    ModelPicker picker(nullptr, cache.path());
    QSignalSpy listed(&picker, &ModelPicker::listed);
    QVERIFY(listed.wait(20000));
    QTableWidget *table = picker.table();
    QCOMPARE(table->rowCount(), 2);
    QCOMPARE(table->item(1, 0)->text(), QStringLiteral("tiny:latest"));
    QCOMPARE(table->item(1, 1)->text(), QStringLiteral("Ollama"));
    QCOMPARE(table->item(1, 2)->text(), QStringLiteral("Llama"));
    QCOMPARE(table->item(1, 4)->text(), QStringLiteral("Q4_0 + F32"));
    table->selectRow(1);
    button(picker, "Open")->click();
    QCOMPARE(picker.chosenPath(), QString::fromStdString((models / "blobs/sha256-12ab").string()));
    fs::remove_all(m_home.path().toStdString() + "/.ollama");
}

HEADLENS_TEST_MAIN(TestModelPicker)
#include "tst_modelpicker.moc"
