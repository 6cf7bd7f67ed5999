// Tests of NpyFile: files numpy wrote, round trips, and damaged files refused with clear messages.
#include "approx.h"
#include "errorof.h"

#include "io/npyfile.h"
#include "testmain.h"
#include "util/inputerror.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>

using namespace headlens;
using headlens::test::errorOf;

Q_DECLARE_METATYPE(std::vector<int64_t>)

namespace {

const QString kSamples = QStringLiteral(HEADLENS_TEST_DATA "/npy/");

/// The InputError message `action` throws, or "(no error)".
/// A .npy v1.0 file with the header dict `dict` (padded as numpy pads it) and `data`.
QByteArray npyWith(const QByteArray &dict, const QByteArray &data)
{
    QByteArray header = dict + QByteArray(63 - (10 + dict.size()) % 64, ' ') + '\n';
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes.append(char(header.size() & 0xff));
    bytes.append(char(header.size() >> 8));
    return bytes + header + data;
}

QByteArray dictOf(const char *descr, const char *order, const char *shape)
{
    return QByteArray("{'descr': '") + descr + "', 'fortran_order': " + order +
           ", 'shape': " + shape + ", }";
}

/// A well-formed (2, 3) '<f4' file with one byte changed or the length cut.
QByteArray valid2x3()
{
    return npyWith(dictOf("<f4", "False", "(2, 3)"), QByteArray(24, '\0'));
}

QByteArray withByte(QByteArray bytes, int at, char value)
{
    bytes[at] = value;
    return bytes;
}

/// Bit patterns, so NaN, -0 and denormals must come back exactly.
std::vector<uint32_t> bitsOf(const float *values, int64_t count)
{
    std::vector<uint32_t> bits(static_cast<size_t>(count));
    for (size_t i = 0; i < bits.size(); ++i)
        std::memcpy(&bits[i], &values[i], sizeof(float));
    return bits;
}

std::string toStd(const QByteArray &bytes)
{
    return std::string(bytes.constData(), static_cast<size_t>(bytes.size()));
}

} // namespace

class TestNpyFile : public QObject
{
    Q_OBJECT

private slots:
    void readsWhatNumpyWrote_data();
    void readsWhatNumpyWrote();
    void refusesNumpyFilesItCannotUse_data();
    void refusesNumpyFilesItCannotUse();
    void roundTripKeepsEveryBit_data();
    void roundTripKeepsEveryBit();
    void refusesDamagedBytes_data();
    void refusesDamagedBytes();
    void refusesEveryTruncation();
    void readErrorsNameThePath();
};

void TestNpyFile::readsWhatNumpyWrote_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<std::vector<int64_t>>("sizes");
    QTest::addColumn<std::vector<float>>("values");
    // The formulas of scripts/make_npy_samples.py.
    const std::vector<float> grid = {-1.0f, -0.5f, 0.0f, 0.5f, 1.0f, 1.5f};
    QTest::newRow("float32") << "f4_2x3.npy" << std::vector<int64_t>{2, 3} << grid;
    QTest::newRow("version 2.0") << "f4_v2_2x3.npy" << std::vector<int64_t>{2, 3} << grid;
    QTest::newRow("version 3.0") << "f4_v3_2x3.npy" << std::vector<int64_t>{2, 3} << grid;
    QTest::newRow("float64") << "f8_3.npy" << std::vector<int64_t>{3}
                             << std::vector<float>{0.1f, -2.5f, 1e10f};
    QTest::newRow("int64 token ids") << "i8_2x4.npy" << std::vector<int64_t>{2, 4}
                                     << std::vector<float>{0, 1, 2, 3, 4, 5, -1, -1};
    QTest::newRow("int32") << "i4_4.npy" << std::vector<int64_t>{4}
                           << std::vector<float>{7, -3, 0, 2147483647.0f};
    QTest::newRow("bool mask") << "b1_2x3.npy" << std::vector<int64_t>{2, 3}
                               << std::vector<float>{0, 0, 1, 0, 1, 1};
    QTest::newRow("uint8") << "u1_5.npy" << std::vector<int64_t>{5}
                           << std::vector<float>{0, 1, 127, 200, 255};
    QTest::newRow("0-d scalar") << "f4_scalar.npy" << std::vector<int64_t>{}
                                << std::vector<float>{3.25f};
    QTest::newRow("empty") << "f4_empty_0x3.npy" << std::vector<int64_t>{0, 3}
                           << std::vector<float>{};
    std::vector<float> counting(12);
    for (size_t i = 0; i < counting.size(); ++i)
        counting[i] = static_cast<float>(i);
    QTest::newRow("rank 4, C order")
        << "f4_2x1x3x2.npy" << std::vector<int64_t>{2, 1, 3, 2} << counting;
}

void TestNpyFile::readsWhatNumpyWrote()
{
    QFETCH(QString, file);
    QFETCH(std::vector<int64_t>, sizes);
    QFETCH(std::vector<float>, values);
    const Tensor t = NpyFile::read((kSamples + file).toStdString());
    QCOMPARE(t.shape().sizes(), sizes);
    for (int axis = 0; axis < t.shape().rank(); ++axis)
        QCOMPARE(t.shape().name(axis), "d" + std::to_string(axis));
    QCOMPARE(t.numel(), static_cast<int64_t>(values.size()));
    for (size_t i = 0; i < values.size(); ++i)
        HL_COMPARE_NEAR(t.data()[i], values[i], 0.0, 0.0);
}

void TestNpyFile::refusesNumpyFilesItCannotUse_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("problem");
    QTest::newRow("fortran order") << "bad_fortran.npy"
                                   << "Fortran order";
    QTest::newRow("big-endian") << "bad_bigendian.npy"
                                << "unsupported data type '>f4'";
    QTest::newRow("float16") << "bad_float16.npy"
                             << "unsupported data type '<f2'";
}

void TestNpyFile::refusesNumpyFilesItCannotUse()
{
    QFETCH(QString, file);
    QFETCH(QString, problem);
    const QString path = kSamples + file;
    const QString message = errorOf([&] { NpyFile::read(path.toStdString()); });
    QVERIFY2(message.startsWith(path), qPrintable(message));
    QVERIFY2(message.contains(problem), qPrintable(message));
}

void TestNpyFile::roundTripKeepsEveryBit_data()
{
    QTest::addColumn<std::vector<int64_t>>("sizes");
    QTest::addColumn<std::vector<float>>("values");
    const float inf = std::numeric_limits<float>::infinity();
    QTest::newRow("scalar") << std::vector<int64_t>{} << std::vector<float>{-7.5f};
    QTest::newRow("vector") << std::vector<int64_t>{4} << std::vector<float>{1, 2, 3, 4};
    QTest::newRow("special values")
        << std::vector<int64_t>{2, 3}
        << std::vector<float>{
               inf, -inf, std::nanf(""), -0.0f, std::numeric_limits<float>::denorm_min(), 1e-30f};
    std::vector<float> many(2 * 3 * 1 * 5);
    for (size_t i = 0; i < many.size(); ++i)
        many[i] = std::sin(static_cast<float>(i)) * 1000.0f;
    QTest::newRow("rank 4") << std::vector<int64_t>{2, 3, 1, 5} << many;
    QTest::newRow("empty") << std::vector<int64_t>{0, 4} << std::vector<float>{};
}

void TestNpyFile::roundTripKeepsEveryBit()
{
    QFETCH(std::vector<int64_t>, sizes);
    QFETCH(std::vector<float>, values);
    std::vector<Axis> axes;
    for (int64_t size : sizes)
        axes.push_back({"a", size});
    const Tensor original(Shape(axes), values);
    QTemporaryDir dir;
    const std::string path = dir.filePath("t.npy").toStdString();
    NpyFile::write(path, original);

    // numpy.save aligns the data to 64 bytes; other readers memory-map files relying on it.
    QCOMPARE((NpyFile::serialize(original).size() - 4 * values.size()) % 64, size_t(0));
    const Tensor back = NpyFile::read(path);
    QCOMPARE(back.shape().sizes(), sizes);
    QCOMPARE(bitsOf(back.data(), back.numel()), bitsOf(values.data(), int64_t(values.size())));
}

void TestNpyFile::refusesDamagedBytes_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("problem");
    const QByteArray data24(24, '\0');
    const QByteArray valid = valid2x3();
    QTest::newRow("empty file") << QByteArray() << "not a .npy file";
    QTest::newRow("bad magic") << withByte(valid, 1, 'X') << "not a .npy file";
    QTest::newRow("a zip archive") << QByteArray("PK\x03\x04rest", 8) << "open it as .npz";
    QTest::newRow("cut in the prefix") << valid.left(9) << "truncated inside its header";
    QTest::newRow("cut in the header") << valid.left(40) << "header needs 118 bytes";
    QTest::newRow("data too short")
        << valid.left(valid.size() - 4) << "(24 bytes) but the file holds 20 bytes";
    QTest::newRow("data too long") << valid + "abcd"
                                   << "(24 bytes) but the file holds 28 bytes";
    QTest::newRow("header lies about the shape")
        << npyWith(dictOf("<f4", "False", "(9, 9)"), data24) << "promises shape (9, 9)";
    QTest::newRow("shape product overflows")
        << npyWith(dictOf("<f4", "False", "(4611686018427387904, 4)"), data24)
        << "too large to exist";
    QTest::newRow("overflow hidden by a zero")
        << npyWith(dictOf("<f4", "False", "(0, 4611686018427387904, 4611686018427387904)"), {})
        << "too large to exist";
    QTest::newRow("dimension beyond int64")
        << npyWith(dictOf("<f4", "False", "(99999999999999999999,)"), data24) << "too large";
    QTest::newRow("negative dimension")
        << npyWith(dictOf("<f4", "False", "(-2, 3)"), data24) << "negative dimension";
    QTest::newRow("header longer than numpy allows")
        << withByte(withByte(valid, 8, '\xff'), 9, '\xff') << "more than the 10000";
    QTest::newRow("header length beyond the file")
        << withByte(withByte(valid, 8, '\x88'), 9, '\x13') << "header needs 5000 bytes";
    QTest::newRow("version 4.0") << withByte(valid, 6, '\x04') << "version 4.0";
    QTest::newRow("fortran order")
        << npyWith(dictOf("<f4", "True", "(2, 3)"), data24) << "Fortran order";
    QTest::newRow("complex dtype")
        << npyWith(dictOf("<c8", "False", "(3,)"), data24) << "unsupported data type '<c8'";
    QTest::newRow("structured dtype")
        << npyWith("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (6,), }", data24)
        << "structured arrays";
    QTest::newRow("missing shape")
        << npyWith("{'descr': '<f4', 'fortran_order': False, }", data24) << "needs the keys";
    QTest::newRow("unknown key")
        << npyWith("{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'x': 1}", data24)
        << "unexpected or repeated key 'x'";
    QTest::newRow("repeated key")
        << npyWith("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (6,)}",
                   data24)
        << "unexpected or repeated key 'descr'";
    QTest::newRow("shape not a tuple")
        << npyWith(dictOf("<f4", "False", "6"), data24) << "expected '('";
    QTest::newRow("(6) is not a tuple")
        << npyWith(dictOf("<f4", "False", "(6)"), data24) << "must be a tuple";
    QTest::newRow("fortran_order not a bool")
        << npyWith(dictOf("<f4", "0", "(6,)"), data24) << "True or False";
    QTest::newRow("unterminated string")
        << npyWith("{'descr': '<f4", data24) << "unterminated string";
    QTest::newRow("text after the dict")
        << npyWith(dictOf("<f4", "False", "(6,)") + " junk", data24) << "after the closing";
    QTest::newRow("33 dimensions")
        << npyWith(
               dictOf(
                   "<f4", "False",
                   QByteArray("(").append(QByteArray("1, ").repeated(33)).append(")").constData()),
               QByteArray(4, '\0'))
        << "more than 32 dimensions";
}

void TestNpyFile::refusesDamagedBytes()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, problem);
    const QString message = errorOf([&] { NpyFile::parse(toStd(bytes), "broken.npy"); });
    QVERIFY2(message.startsWith("broken.npy: "), qPrintable(message));
    QVERIFY2(message.contains(problem), qPrintable(message));
}

void TestNpyFile::refusesEveryTruncation()
{
    // Each cut must be caught by a check, not by reading past the end.
    const std::string valid = toStd(valid2x3());
    for (size_t length = 0; length < valid.size(); ++length) {
        const QString message = errorOf([&] { NpyFile::parse(valid.substr(0, length), "cut"); });
        QVERIFY2(message.startsWith("cut: "), qPrintable(QString::number(length) + message));
    }
}

void TestNpyFile::readErrorsNameThePath()
{
    QTemporaryDir dir;
    const QString missing = dir.filePath("missing.npy");
    QString message = errorOf([&] { NpyFile::read(missing.toStdString()); });
    QVERIFY2(message.startsWith("Cannot open " + missing + " as .npy: No such file"),
             qPrintable(message));

    message = errorOf([&] { NpyFile::read(dir.path().toStdString()); });
    QCOMPARE(message, "Cannot open " + dir.path() +
                          " as .npy: it is a folder. Choose the file "
                          "inside it.");

    const QString cut = dir.filePath("cut.npy");
    QFile file(cut);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(valid2x3().left(100));
    file.close();
    message = errorOf([&] { NpyFile::read(cut.toStdString()); });
    QVERIFY2(message.startsWith(cut + ": ") && message.contains("truncated"), qPrintable(message));
}

HEADLENS_TEST_APPLESS_MAIN(TestNpyFile)
#include "tst_npyfile.moc"
