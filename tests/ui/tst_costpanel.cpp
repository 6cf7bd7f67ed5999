// tst_costpanel: the Cost tab's numbers — the Llama 2 70B preset against the hand computation,
// and bytes, counts and FLOPs written as people read them.
#include "cost/costnumbers.h"
#include "cost/costpanel.h"
#include "cost/costsettingsform.h"
#include "cost/costtable.h"
#include "cost/kvcacheplot.h"
#include "testmain.h"

#include <QPushButton>
#include <QSpinBox>
#include <QTest>

using namespace headlens;

class TestCostPanel : public QObject
{
    Q_OBJECT

private slots:
    // The hand computation: 2 · 8 · 128 · 2 bytes · 80 layers · 4096 tokens = 1.25 GiB,
    // against 2 · 64 · 128 · 2 · 80 · 4096 = 10 GiB with a K and a V per query head.
    void llama2PresetShowsWhyItUsesEightKvHeads()
    {
        CostPanel panel;
        panel.show();
        QVERIFY(panel.form()->isFollowing());
        QTest::mouseClick(panel.form()->llama2Button(), Qt::LeftButton);
        QVERIFY(!panel.form()->isFollowing());
        const CostComparison &c = panel.comparison();
        QCOMPARE(c.chosen.kvCacheBytes, 2.0 * 8 * 128 * 2 * 80 * 4096);
        QCOMPARE(c.chosen.kvCacheBytes, 1.25 * (1 << 30));
        QCOMPARE(c.multiHead.kvCacheBytes, 10.0 * (1 << 30));
        QCOMPARE(c.multiQuery.kvCacheBytes, 160.0 * (1 << 20));
        // W_Q and W_O of 8192², W_K and W_V of 1024 x 8192 each, no biases.
        QCOMPARE(c.chosen.parametersPerLayer, int64_t(2) * 8192 * 8192 + 2 * 1024 * 8192);
        const CostTable *table = panel.table();
        QCOMPARE(table->cell(CostTable::CacheWholeContext, CostTable::Chosen), QString("1.25 GiB"));
        QCOMPARE(table->cell(CostTable::CacheWholeContext, CostTable::MultiHead),
                 QString("10 GiB"));
        QCOMPARE(table->cell(CostTable::CacheWholeContext, CostTable::MultiQuery),
                 QString("160 MiB"));
        QCOMPARE(table->cell(CostTable::CachePerTokenPerLayer, CostTable::Chosen),
                 QString("4 KiB"));
        QCOMPARE(table->cell(CostTable::CachePerToken, CostTable::Chosen), QString("320 KiB"));
        QCOMPARE(table->cell(CostTable::KvHeads, CostTable::Chosen), QString("8"));
        QCOMPARE(table->cell(CostTable::ParametersPerLayer, CostTable::Chosen), QString("151 M"));
        const QString headline = panel.headline();
        QVERIFY2(headline.contains("1.25 GiB") && headline.contains("10 GiB"),
                 qPrintable(headline));
        QVERIFY2(headline.contains("1/8 of MHA's cache"), qPrintable(headline));
        // The plot's lines are the same sums at any length: at n = 4096 the table's numbers.
        QCOMPARE(panel.plot()->valueAt(1, 4096), c.chosen.kvCacheBytes);
        QCOMPARE(panel.plot()->valueAt(0, 8192), 2.0 * c.multiHead.kvCacheBytes);
    }

    void numbersReadAsPeopleWriteThem_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("1.25 GiB") << "bytes" << 1.25 * (1 << 30) << "1.25 GiB";
        QTest::newRow("10 GiB") << "bytes" << 10.0 * (1 << 30) << "10 GiB";
        QTest::newRow("160 MiB") << "bytes" << 160.0 * (1 << 20) << "160 MiB";
        QTest::newRow("512 bytes") << "bytes" << 512.0 << "512 bytes";
        QTest::newRow("2.5 MiB") << "bytes" << 2.5 * (1 << 20) << "2.5 MiB";
        QTest::newRow("151 M") << "count" << 150994944.0 << "151 M";
        QTest::newRow("657 k") << "count" << 656896.0 << "657 k";
        QTest::newRow("13.3 MFLOP") << "flops" << 13.34e6 << "13.3 MFLOP";
        QTest::newRow("1.79 TFLOP") << "flops" << 1.7896e12 << "1.79 TFLOP";
    }
    void numbersReadAsPeopleWriteThem()
    {
        QFETCH(QString, kind);
        QFETCH(double, value);
        QFETCH(QString, text);
        const QString shown = kind == "bytes"   ? CostNumbers::bytes(value)
                              : kind == "count" ? CostNumbers::count(value)
                                                : CostNumbers::flops(value);
        QCOMPARE(shown, text);
    }

    // h_kv must divide h: the panel says so and keeps the last good comparison.
    void kvHeadsThatDoNotDivideAreExplained()
    {
        CostPanel panel;
        panel.form()->applyLlama2();
        const double before = panel.comparison().chosen.kvCacheBytes;
        auto *kv = panel.form()->findChild<QSpinBox *>("cost_kv_heads");
        kv->setValue(6);
        QVERIFY2(panel.headline().contains("cannot share 6 K/V heads"),
                 qPrintable(panel.headline()));
        QCOMPARE(panel.comparison().chosen.kvCacheBytes, before);
        kv->setValue(16);
        QCOMPARE(panel.comparison().chosen.kvCacheBytes, 2.0 * before);
    }
};

HEADLENS_TEST_MAIN(TestCostPanel)
#include "tst_costpanel.moc"
