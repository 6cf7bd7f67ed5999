// Tests of MemoryNeeds: a model that cannot fit is refused with the numbers, before loading.
#include "errorof.h"

#include "model/memoryneeds.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;
using headlens::test::errorOf;

class TestMemoryNeeds : public QObject
{
    Q_OBJECT

private slots:
    void countsTheAttentionLaidOut();
    void refusesWhatDoesNotFit();
    void countsTheModelAlreadyOpen();
    void readsTheAvailableMemory();
};

/// Qwen2.5-0.5B: 24 layers, hidden 896, 14 heads of 64 over 2 K/V heads. Per layer W_Q and W_O
/// are 896 x 896, W_K and W_V 128 x 896: (2 * 896 + 2 * 128) * 896 floats.
void TestMemoryNeeds::countsTheAttentionLaidOut()
{
    ModelSpec spec = ModelSpec::fromJson(
        R"({"model_type": "qwen2", "num_hidden_layers": 24, "hidden_size": 896,
            "num_attention_heads": 14, "num_key_value_heads": 2})",
        "c");
    const MemoryNeeds needs = MemoryNeeds::of(spec, 988'000'000);
    QCOMPARE(needs.attentionBytes, uint64_t(24) * (2 * 896 + 2 * 128) * 896 * 4);
    QCOMPARE(needs.total(), needs.attentionBytes + 988'000'000);
}

void TestMemoryNeeds::refusesWhatDoesNotFit()
{
    const MemoryNeeds needs{uint64_t(3) << 30, uint64_t(1) << 30}; // 3 GiB mapped, 1 GiB laid out
    QCOMPARE(errorOf([&] { needs.check(uint64_t(5) << 30, "/m"); }), QStringLiteral("(no error)"));
    QCOMPARE(errorOf([&] { needs.check(0, "/m"); }), QStringLiteral("(no error)")); // unknown
    const QString error = errorOf([&] { needs.check(uint64_t(2) << 30, "/models/big"); });
    for (const char *fragment :
         {"The model in /models/big needs about 4.0 GiB", "3.0 GiB of weights",
          "1.0 GiB of attention matrices", "has 2.0 GiB available", "open a smaller model"})
        QVERIFY2(error.contains(fragment), qPrintable(error + " lacks " + fragment));
}

// B of a comparison opens beside A: A's mapped weights count as taken, although MemAvailable
// counts them as free page cache.
void TestMemoryNeeds::countsTheModelAlreadyOpen()
{
    const MemoryNeeds needs{uint64_t(3) << 30, uint64_t(1) << 30}; // 4 GiB in all
    const uint64_t available = uint64_t(5) << 30;
    QCOMPARE(errorOf([&] { needs.check(available, "/m", uint64_t(1) << 30); }),
             QStringLiteral("(no error)")); // 4 + 1 of 5 GiB
    const QString error =
        errorOf([&] { needs.check(available, "/models/b.gguf", uint64_t(2) << 30); });
    for (const char *fragment :
         {"The model in /models/b.gguf needs about 4.0 GiB", "beside the 2.0 GiB of weights",
          "of the model already open only 3.0 GiB of this computer's 5.0 GiB are available",
          "Compare two smaller models"})
        QVERIFY2(error.contains(fragment), qPrintable(error + " lacks " + fragment));
}

void TestMemoryNeeds::readsTheAvailableMemory()
{
    // This machine has some memory free, and not more than a petabyte.
    const uint64_t available = MemoryNeeds::availableBytes();
    QVERIFY(available > (uint64_t(16) << 20));
    QVERIFY(available < (uint64_t(1) << 50));
}

HEADLENS_TEST_APPLESS_MAIN(TestMemoryNeeds)
#include "tst_memoryneeds.moc"
