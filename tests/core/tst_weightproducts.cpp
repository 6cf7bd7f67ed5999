// Tests of multiply(): x times a stored weight, in place or widened block by block, both layouts.
#include "approx.h"

#include "model/weightproducts.h"
#include "testmain.h"
#include "util/counterrandom.h"

#include <QTest>

#include <cstring>
#include <vector>

using namespace headlens;

namespace {

/// Bytes of `values` stored as `format` (values chosen exactly representable in it), starting
/// `offset` bytes into the buffer so that F32 can be made unaligned.
std::vector<unsigned char> store(const RowMatrix &values, StoredFormat format, int offset)
{
    const int width = storedBlockBytes(format);
    std::vector<unsigned char> bytes(size_t(offset + values.size() * width));
    for (Eigen::Index i = 0; i < values.size(); ++i) {
        uint32_t bits;
        const float v = values.data()[i];
        std::memcpy(&bits, &v, 4);
        if (format == StoredFormat::F32)
            std::memcpy(bytes.data() + offset + 4 * i, &bits, 4);
        // Both half formats: the values are small multiples of 1/64, exact in either; F16 bits
        // are built from sign, exponent and mantissa of the float.
        if (format == StoredFormat::BF16) {
            const uint16_t half = uint16_t(bits >> 16);
            std::memcpy(bytes.data() + offset + 2 * i, &half, 2);
        }
        if (format == StoredFormat::F16) {
            uint16_t half = 0;
            if (v != 0.0f) {
                const uint32_t sign = (bits >> 31) & 1u, exponent = (bits >> 23) & 0xffu;
                half = uint16_t((sign << 15) | ((exponent - 112) << 10) | ((bits >> 13) & 0x3ffu));
            }
            std::memcpy(bytes.data() + offset + 2 * i, &half, 2);
        }
    }
    return bytes;
}

/// Multiples of 1/64 in [-2, 2]: exact in F32, F16 and BF16, so every format holds one matrix.
RowMatrix exactValues(int64_t rows, int64_t cols, uint64_t seed)
{
    const CounterRandom random(seed, 7);
    RowMatrix m(rows, cols);
    for (int64_t i = 0; i < m.size(); ++i)
        m.data()[i] = float(int(random.uniform(uint64_t(i)) * 257.0) - 128) / 64.0f;
    return m;
}

} // namespace

Q_DECLARE_METATYPE(StoredFormat)
Q_DECLARE_METATYPE(WeightLayout)

class TestWeightProducts : public QObject
{
    Q_OBJECT

private slots:
    void matchesDoublePrecisionProduct_data();
    void matchesDoublePrecisionProduct();
    void widenedViewsReadTheStoredValues();
};

void TestWeightProducts::matchesDoublePrecisionProduct_data()
{
    QTest::addColumn<StoredFormat>("format");
    QTest::addColumn<WeightLayout>("layout");
    QTest::addColumn<int>("offset"); // bytes before the weight: 2 makes F32 unaligned
    QTest::addColumn<int>("depth");  // d_in
    QTest::addColumn<int>("outputs");
    for (const auto &[format, name] : {std::pair{StoredFormat::F32, "F32"},
                                       {StoredFormat::F16, "F16"},
                                       {StoredFormat::BF16, "BF16"}})
        for (const auto &[layout, layoutName] :
             {std::pair{WeightLayout::Conv1D, "Conv1D"}, {WeightLayout::Linear, "Linear"}}) {
            QTest::addRow("%s %s", name, layoutName) << format << layout << 0 << 48 << 200;
            // 5000 deep: 52 columns are widened at a time, several blocks per thread's share.
            QTest::addRow("%s %s deep", name, layoutName) << format << layout << 0 << 5000 << 300;
            QTest::addRow("%s %s unaligned", name, layoutName) << format << layout << 2 << 40 << 70;
        }
}

/// Every output against the same product in double precision from the stored values: the
/// layouts are y = x W (Conv1D, W (d_in, d_out)) and y = x W^T (Linear, W (d_out, d_in)).
void TestWeightProducts::matchesDoublePrecisionProduct()
{
    QFETCH(StoredFormat, format);
    QFETCH(WeightLayout, layout);
    QFETCH(int, offset);
    QFETCH(int, depth);
    QFETCH(int, outputs);
    const bool conv1d = layout == WeightLayout::Conv1D;
    const RowMatrix w = exactValues(conv1d ? depth : outputs, conv1d ? outputs : depth, 11);
    const RowMatrix x = exactValues(5, depth, 12);
    const std::vector<unsigned char> bytes = store(w, format, offset);
    const WeightView view{bytes.data() + offset, format, w.rows(), w.cols()};
    QCOMPARE(view.inPlace().has_value(), format == StoredFormat::F32 && offset % 4 == 0);

    const RowMatrix y = multiply(x, view, layout);
    const Eigen::MatrixXd expected =
        conv1d ? Eigen::MatrixXd(x.cast<double>() * w.cast<double>())
               : Eigen::MatrixXd(x.cast<double>() * w.cast<double>().transpose());
    QCOMPARE(y.rows(), Eigen::Index(5));
    QCOMPARE(y.cols(), Eigen::Index(outputs));
    for (Eigen::Index i = 0; i < y.rows(); ++i)
        for (Eigen::Index j = 0; j < y.cols(); ++j)
            HL_COMPARE_NEAR(y(i, j), expected(i, j), 1e-5, 1e-4);
}

void TestWeightProducts::widenedViewsReadTheStoredValues()
{
    const RowMatrix w = exactValues(6, 9, 3);
    for (StoredFormat format : {StoredFormat::F32, StoredFormat::F16, StoredFormat::BF16}) {
        const std::vector<unsigned char> bytes = store(w, format, 0);
        const WeightView view{bytes.data(), format, 6, 9};
        QVERIFY(view.widen() == w);
        RowMatrix rows(2, 9), cols(6, 3);
        view.widenRows(3, 2, rows.data());
        view.widenColumns(4, 3, cols.data());
        QVERIFY(rows == w.middleRows(3, 2));
        QVERIFY(cols == w.middleCols(4, 3));
    }
}

HEADLENS_TEST_APPLESS_MAIN(TestWeightProducts)
#include "tst_weightproducts.moc"
