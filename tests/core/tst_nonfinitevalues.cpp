// Tests of NonFiniteValues: NaN and infinities counted, and the warning that names the tensor.
#include "io/nonfinitevalues.h"
#include "testmain.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace headlens;

class TestNonFiniteValues : public QObject
{
    Q_OBJECT

private slots:
    void counts_data();
    void counts();
    void storedFormats_data();
    void storedFormats();
    void warningNamesTheTensorAndTheCounts_data();
    void warningNamesTheTensorAndTheCounts();
};

namespace {

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
// The largest float and the smallest subnormal are numbers, however odd.
constexpr float kMax = std::numeric_limits<float>::max();
constexpr float kTiny = std::numeric_limits<float>::denorm_min();

} // namespace

void TestNonFiniteValues::counts_data()
{
    QTest::addColumn<std::vector<float>>("values");
    QTest::addColumn<qint64>("nans");
    QTest::addColumn<qint64>("infinities");
    QTest::newRow("empty") << std::vector<float>{} << qint64(0) << qint64(0);
    QTest::newRow("finite extremes")
        << std::vector<float>{kMax, -kMax, kTiny, 0.0f, -0.0f} << qint64(0) << qint64(0);
    QTest::newRow("two NaN, both infinities")
        << std::vector<float>{1.0f, kNan, kInf, 2.0f, -kInf, -kNan} << qint64(2) << qint64(2);
    QTest::newRow("all NaN") << std::vector<float>(7, kNan) << qint64(7) << qint64(0);
}

void TestNonFiniteValues::counts()
{
    QFETCH(std::vector<float>, values);
    QFETCH(qint64, nans);
    QFETCH(qint64, infinities);
    const NonFiniteValues found = NonFiniteValues::of(values.data(), int64_t(values.size()));
    QCOMPARE(qint64(found.nans), nans);
    QCOMPARE(qint64(found.infinities), infinities);
    QCOMPARE(qint64(found.total), qint64(values.size()));
    QCOMPARE(found.any(), nans + infinities > 0);
}

// Little-endian half and bfloat16 bits as IEEE 754 defines them: exponent all ones is infinite
// with a zero mantissa and NaN with any other; the largest finite values just below.
void TestNonFiniteValues::storedFormats_data()
{
    QTest::addColumn<int>("format");
    QTest::addColumn<std::vector<uint16_t>>("bits");
    QTest::addColumn<qint64>("nans");
    QTest::addColumn<qint64>("infinities");
    QTest::newRow("F16") << int(StoredFormat::F16)
                         << std::vector<uint16_t>{0x3c00, 0x7bff, 0xfbff, 0x7c00,
                                                  0xfc00, 0x7e00, 0x7c01, 0x0001}
                         << qint64(2) << qint64(2);
    QTest::newRow("BF16") << int(StoredFormat::BF16)
                          << std::vector<uint16_t>{0x3f80, 0x7f7f, 0x7f80, 0x7fc0, 0xff81, 0x0080}
                          << qint64(2) << qint64(1);
}

void TestNonFiniteValues::storedFormats()
{
    QFETCH(int, format);
    QFETCH(std::vector<uint16_t>, bits);
    QFETCH(qint64, nans);
    QFETCH(qint64, infinities);
    std::vector<unsigned char> bytes;
    bytes.push_back(0xff); // an odd start: the mapping holds values at any alignment
    for (uint16_t b : bits) {
        bytes.push_back(uint8_t(b & 0xff));
        bytes.push_back(uint8_t(b >> 8));
    }
    const NonFiniteValues found =
        NonFiniteValues::ofStored(bytes.data() + 1, StoredFormat(format), int64_t(bits.size()));
    QCOMPARE(qint64(found.nans), nans);
    QCOMPARE(qint64(found.infinities), infinities);
    // F32 through the same path: the bytes of the floats themselves.
    const std::vector<float> values{1.0f, kNan, -kInf, kMax, kTiny};
    std::vector<unsigned char> raw(1 + values.size() * sizeof(float));
    std::memcpy(raw.data() + 1, values.data(), values.size() * sizeof(float));
    const NonFiniteValues f32 =
        NonFiniteValues::ofStored(raw.data() + 1, StoredFormat::F32, int64_t(values.size()));
    QCOMPARE(qint64(f32.nans), qint64(1));
    QCOMPARE(qint64(f32.infinities), qint64(1));
}

void TestNonFiniteValues::warningNamesTheTensorAndTheCounts_data()
{
    QTest::addColumn<qint64>("nans");
    QTest::addColumn<qint64>("infinities");
    QTest::addColumn<QString>("says"); // "" = no warning
    QTest::newRow("finite") << qint64(0) << qint64(0) << "";
    QTest::newRow("one NaN") << qint64(1) << qint64(0)
                             << "w.npz: 'out_proj.weight' holds 1 NaN value among its 64;";
    QTest::newRow("infinities only")
        << qint64(0) << qint64(5)
        << "w.npz: 'out_proj.weight' holds 5 infinite values among its 64;";
    QTest::newRow("both") << qint64(3) << qint64(1)
                          << "w.npz: 'out_proj.weight' holds 3 NaN and 1 infinite values among "
                             "its 64;";
}

void TestNonFiniteValues::warningNamesTheTensorAndTheCounts()
{
    QFETCH(qint64, nans);
    QFETCH(qint64, infinities);
    QFETCH(QString, says);
    std::vector<float> values(64, 0.5f);
    std::fill_n(values.begin(), nans, kNan);
    std::fill_n(values.begin() + nans, infinities, -kInf);
    const auto warning = NonFiniteValues::of(values.data(), 64).warning("w.npz", "out_proj.weight");
    QCOMPARE(warning.has_value(), !says.isEmpty());
    if (!warning)
        return;
    const QString text = QString::fromStdString(*warning);
    QVERIFY2(text.startsWith(says), qPrintable(text));
    // What to do, not only what is wrong.
    QVERIFY2(text.contains("Save the weights again"), qPrintable(text));
}

HEADLENS_TEST_APPLESS_MAIN(TestNonFiniteValues)
#include "tst_nonfinitevalues.moc"
