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
    void listsTheCacheAndOpensAModel();
    void anEmptyCacheSaysSo();
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
    QVERIFY2(table->item(0, 5)->text().contains("Cannot open") &&
                 table->item(0, 5)->text().contains("model.safetensors"),
             qPrintable(table->item(0, 5)->text()));
    QCOMPARE(table->item(1, 0)->text(), QStringLiteral("tiny/qwen2"));
    QCOMPARE(table->item(1, 1)->text(), QStringLiteral("Qwen2"));
    QCOMPARE(table->item(1, 3)->text(), QStringLiteral("F32"));
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

HEADLENS_TEST_MAIN(TestModelPicker)
#include "tst_modelpicker.moc"
