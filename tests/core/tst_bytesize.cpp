// tst_bytesize: the one byte formatter at its unit boundaries, rounding and the caps' wording.
#include "testmain.h"
#include "util/bytesize.h"

#include <QTest>

using namespace headlens;

class TestByteSize : public QObject
{
    Q_OBJECT

private slots:
    void formatBytes_data();
    void formatBytes();
    void byteUnitFor_data();
    void byteUnitFor();
};

void TestByteSize::formatBytes_data()
{
    QTest::addColumn<double>("bytes");
    QTest::addColumn<int>("decimals");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << 0.0 << 1 << "0 bytes";
    QTest::newRow("1023 stays bytes") << 1023.0 << 1 << "1023 bytes";
    QTest::newRow("1023.6 rounds to 1.0 KiB") << 1023.6 << 1 << "1.0 KiB";
    QTest::newRow("1024 is 1 KiB") << 1024.0 << 1 << "1.0 KiB";
    QTest::newRow("1536") << 1536.0 << 2 << "1.50 KiB";
    QTest::newRow("just under 1 MiB rolls over") << 1048575.0 << 1 << "1.0 MiB";
    QTest::newRow("just under 1 MiB, 4 decimals") << 1048575.0 << 4 << "1023.9990 KiB";
    QTest::newRow("1.25 GiB") << 1.25 * 1073741824.0 << 2 << "1.25 GiB";
    QTest::newRow("negative") << -2048.0 << 1 << "-2.0 KiB";
    QTest::newRow("PiB is the last unit") << 2048.0 * 1125899906842624.0 << 0 << "2048 PiB";
    // The file readers' caps, decimals 0, as WholeFile wrote them before the fold.
    QTest::newRow("cap 4 GiB") << double(quint64(4) << 30) << 0 << "4 GiB";
    QTest::newRow("cap 16 MiB") << double(quint64(16) << 20) << 0 << "16 MiB";
    QTest::newRow("cap 100 MiB") << double(quint64(100) << 20) << 0 << "100 MiB";
}

void TestByteSize::formatBytes()
{
    QFETCH(double, bytes);
    QFETCH(int, decimals);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(headlens::formatBytes(bytes, decimals)), text);
}

void TestByteSize::byteUnitFor_data()
{
    QTest::addColumn<double>("bytes");
    QTest::addColumn<int>("decimals");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("divisor");
    QTest::newRow("bytes") << 1000.0 << 0 << "bytes" << 1.0;
    QTest::newRow("KiB") << 4096.0 << 0 << "KiB" << 1024.0;
    QTest::newRow("1023.7 KiB whole reads 1024: MiB") << 1023.7 * 1024 << 0 << "MiB" << 1048576.0;
    QTest::newRow("1023.7 KiB to one decimal stays") << 1023.7 * 1024 << 1 << "KiB" << 1024.0;
    QTest::newRow("GiB") << 3.0 * 1073741824.0 << 0 << "GiB" << 1073741824.0;
}

void TestByteSize::byteUnitFor()
{
    QFETCH(double, bytes);
    QFETCH(int, decimals);
    QFETCH(QString, unit);
    QFETCH(double, divisor);
    const ByteUnit u = headlens::byteUnitFor(bytes, decimals);
    QCOMPARE(QString(u.name), unit);
    QCOMPARE(u.divisor, divisor);
}

HEADLENS_TEST_APPLESS_MAIN(TestByteSize)
#include "tst_bytesize.moc"
