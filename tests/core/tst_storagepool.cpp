// Tests of StoragePool: tensors of a size seen before reuse its blocks, within the capacity.
#include "tensor/storagepool.h"
#include "tensor/tensor.h"
#include "testmain.h"

#include <QTest>

#include <algorithm>
#include <memory>

using namespace headlens;

namespace {

/// A (rows, 1024) shape: 4 KiB per row, so 16 rows make the smallest pooled block.
Shape rowsOf4KiB(int64_t rows)
{
    return Shape{{"rows", rows}, {"cols", 1024}};
}

bool allZero(const Tensor &t)
{
    return std::all_of(t.data(), t.data() + t.numel(), [](float v) { return v == 0.0f; });
}

} // namespace

class TestStoragePool : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void sameSizeReusesTheBlock();
    void recycledTensorsStartAtZero();
    void aLittleLargerBlockFitsButNotAMuchLargerOne();
    void aTextOneTokenLongerReusesTheBlock();
    void idleMemoryStaysWithinCapacity();
    void aNewSizeMakesRoomInsteadOfPilingUp();
    void aBlockLargerThanTheCapacityWaitsForARunAsLarge();
    void smallBlocksAreNotKept();
};

void TestStoragePool::init()
{
    StoragePool::instance().setCapacity(size_t(256) << 20);
    StoragePool::instance().clear();
}

void TestStoragePool::sameSizeReusesTheBlock()
{
    const float *first = nullptr;
    {
        const Tensor t(rowsOf4KiB(64)); // 256 KiB
        first = t.data();
    }
    QCOMPARE(StoragePool::instance().idleBytes(), size_t(256) << 10);
    const Tensor again = Tensor::uninitialized(rowsOf4KiB(64));
    QCOMPARE(again.data(), first);
    QCOMPARE(StoragePool::instance().idleBytes(), size_t(0));
}

void TestStoragePool::recycledTensorsStartAtZero()
{
    {
        Tensor dirty(rowsOf4KiB(32));
        std::fill(dirty.data(), dirty.data() + dirty.numel(), 7.0f);
    }
    const Tensor clean(rowsOf4KiB(32));
    QCOMPARE(StoragePool::instance().idleBytes(), size_t(0)); // it was the recycled block
    QVERIFY(allZero(clean));
}

void TestStoragePool::aLittleLargerBlockFitsButNotAMuchLargerOne()
{
    const float *block = nullptr;
    {
        const Tensor t(rowsOf4KiB(100));
        block = t.data();
    }
    // A text a few tokens shorter reuses the block (up to a quarter larger than needed)...
    {
        const Tensor shorter(rowsOf4KiB(90));
        QCOMPARE(shorter.data(), block);
    }
    // ...a much shorter one does not tie it up.
    const Tensor muchShorter(rowsOf4KiB(50));
    QVERIFY(muchShorter.data() != block);
    QCOMPARE(StoragePool::instance().idleBytes(), size_t(416) << 10); // 400 KiB rounded up
}

void TestStoragePool::aTextOneTokenLongerReusesTheBlock()
{
    // Scores of 12 heads for 100 tokens, then for 101: blocks come in eight sizes per doubling,
    // so the longer text still fits the shorter one's block.
    const auto scores = [](int64_t n) { return Shape{{"h", 12}, {"n", n}, {"n_kv", n}}; };
    const float *block = nullptr;
    {
        const Tensor t = Tensor::uninitialized(scores(100));
        block = t.data();
    }
    const Tensor longer = Tensor::uninitialized(scores(101));
    QCOMPARE(longer.data(), block);
}

void TestStoragePool::idleMemoryStaysWithinCapacity()
{
    StoragePool &pool = StoragePool::instance();
    pool.setCapacity(size_t(1) << 20); // 1 MiB
    {
        const Tensor a(rowsOf4KiB(128)), b(rowsOf4KiB(128)), c(rowsOf4KiB(128)); // 512 KiB each
    }
    QCOMPARE(pool.idleBytes(), size_t(1) << 20); // two kept, the oldest one freed
    pool.setCapacity(size_t(512) << 10);
    QCOMPARE(pool.idleBytes(), size_t(512) << 10);
    pool.clear();
    QCOMPARE(pool.idleBytes(), size_t(0));
    {
        const Tensor tooLarge(rowsOf4KiB(512)); // 2 MiB: more than the pool may hold
    }
    QCOMPARE(pool.idleBytes(), size_t(0)); // freed at once, not kept
}

void TestStoragePool::aNewSizeMakesRoomInsteadOfPilingUp()
{
    StoragePool &pool = StoragePool::instance();
    pool.setCapacity(size_t(1) << 20); // 1 MiB
    {
        const Tensor a(rowsOf4KiB(128)), b(rowsOf4KiB(128)); // 512 KiB each, then idle
    }
    QCOMPARE(pool.idleBytes(), size_t(1) << 20);
    // 768 KiB fits neither idle block: both old blocks go, the new one is allocated.
    const Tensor larger(rowsOf4KiB(192));
    QVERIFY(pool.idleBytes() + (size_t(768) << 10) <= pool.capacity());
    QCOMPARE(pool.idleBytes(), size_t(0));
}

void TestStoragePool::aBlockLargerThanTheCapacityWaitsForARunAsLarge()
{
    // A long text's run is larger than the capacity. Typed on, the run on show and the new one
    // are alive together; once the run before last goes, its block waits for the next
    // keystroke's run, which takes it already written.
    StoragePool &pool = StoragePool::instance();
    pool.setCapacity(size_t(1) << 20); // 1 MiB
    const float *beforeLast = nullptr;
    auto shown = std::make_unique<Tensor>(Tensor::uninitialized(rowsOf4KiB(512))); // 2 MiB
    {
        const Tensor typedOn = Tensor::uninitialized(rowsOf4KiB(512));
        beforeLast = shown->data();
        shown = std::make_unique<Tensor>(typedOn); // the run before last goes
        QCOMPARE(pool.usedBytes(), size_t(2) << 20);
        QCOMPARE(pool.idleBytes(), size_t(2) << 20); // kept: as much is in use
        const Tensor next = Tensor::uninitialized(rowsOf4KiB(512));
        QCOMPARE(next.data(), beforeLast);
        QCOMPARE(pool.idleBytes(), size_t(0));
    } // `next` kept while `shown` is in use
    QCOMPARE(pool.idleBytes(), size_t(2) << 20);
    // Once nothing as large is in use, idle memory shrinks to the capacity: no 2 MiB block is
    // kept without a run of that size alive.
    shown.reset();
    QCOMPARE(pool.usedBytes(), size_t(0));
    QCOMPARE(pool.idleBytes(), size_t(0));
}

void TestStoragePool::smallBlocksAreNotKept()
{
    {
        const Tensor small(Shape{{"n", 100}});
    }
    QCOMPARE(StoragePool::instance().idleBytes(), size_t(0));
}

HEADLENS_TEST_APPLESS_MAIN(TestStoragePool)
#include "tst_storagepool.moc"
