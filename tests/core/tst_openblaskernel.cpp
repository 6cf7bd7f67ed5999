// Tests of OpenBlasKernel: which kernel replaces OpenBLAS's fallback, by processor.
#include "linalg/openblaskernel.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;

class TestOpenBlasKernel : public QObject
{
    Q_OBJECT

private slots:
    void betterKernelForTheProcessor_data();
    void betterKernelForTheProcessor();
    void readsThisProcessorsFlags();
};

namespace {

const std::set<std::string> kAvx512 = {"sse3",     "avx",      "avx2",     "fma",     "avx512f",
                                       "avx512bw", "avx512vl", "avx512dq", "avx512cd"};
const std::set<std::string> kAvx2 = {"sse3", "avx", "avx2", "fma"};

} // namespace

void TestOpenBlasKernel::betterKernelForTheProcessor_data()
{
    QTest::addColumn<QString>("chosen");
    QTest::addColumn<int>("processor"); // 0: AVX-512, 1: AVX2 and FMA, 2: SSE only
    QTest::addColumn<QString>("expected");
    QTest::newRow("Prescott on AVX-512 (an Intel 0.3.21 does not know)")
        << "Prescott" << 0 << "SkylakeX";
    QTest::newRow("Prescott on AVX2") << "Prescott" << 1 << "Haswell";
    QTest::newRow("Sandybridge on AVX2") << "Sandybridge" << 1 << "Haswell";
    QTest::newRow("Prescott on SSE only: nothing better") << "Prescott" << 2 << "";
    QTest::newRow("SkylakeX chosen: kept") << "SkylakeX" << 0 << "";
    QTest::newRow("Cooperlake chosen: kept") << "Cooperlake" << 0 << "";
    QTest::newRow("Haswell chosen: kept") << "Haswell" << 0 << "";
    QTest::newRow("Zen chosen: kept") << "Zen" << 1 << "";
}

void TestOpenBlasKernel::betterKernelForTheProcessor()
{
    QFETCH(QString, chosen);
    QFETCH(int, processor);
    QFETCH(QString, expected);
    const std::set<std::string> flags = processor == 0   ? kAvx512
                                        : processor == 1 ? kAvx2
                                                         : std::set<std::string>{"sse3"};
    QCOMPARE(QString::fromStdString(OpenBlasKernel::better(chosen.toStdString(), flags)), expected);
    // AVX2 without FMA (a VIA or an emulator's CPU) is no Haswell.
    QCOMPARE(OpenBlasKernel::better("Prescott", {"avx", "avx2"}), std::string());
}

// Every x86-64 processor has SSE2; the flags are words, not a line.
void TestOpenBlasKernel::readsThisProcessorsFlags()
{
    const std::set<std::string> flags = OpenBlasKernel::cpuFlags();
    QVERIFY(flags.count("sse2"));
    QVERIFY(!flags.count("flags"));
    QVERIFY(!flags.count(":"));
}

HEADLENS_TEST_APPLESS_MAIN(TestOpenBlasKernel)
#include "tst_openblaskernel.moc"
