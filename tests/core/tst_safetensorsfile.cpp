// Tests of SafetensorsFile: header checks with their messages, mapping, and F16/BF16 conversion.
#include "approx.h"
#include "errorof.h"

#include "io/safetensorsfile.h"
#include "testmain.h"
#include "util/inputerror.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>

using namespace headlens;
using headlens::test::errorOf;

namespace {

/// A safetensors file: little-endian u64 header length, the header, then `data`.
QByteArray fileBytes(const QByteArray &header, const QByteArray &data, uint64_t declared = 0)
{
    const uint64_t length = declared ? declared : uint64_t(header.size());
    QByteArray bytes;
    for (int i = 0; i < 8; ++i)
        bytes.append(char((length >> (8 * i)) & 0xFF));
    return bytes + header + data;
}

QString writeFile(const QTemporaryDir &dir, const QByteArray &bytes)
{
    const QString path = dir.filePath("model.safetensors");
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write the test file");
    return path;
}

} // namespace

class TestSafetensorsFile : public QObject
{
    Q_OBJECT

private slots:
    void refusesBadHeaders_data();
    void refusesBadHeaders();
    void refusesBadFiles_data();
    void refusesBadFiles();
    void readsEveryFloatDtype();
    void halfPrecision_data();
    void halfPrecision();
    void readsTheTinyCheckpoint();
};

void TestSafetensorsFile::refusesBadHeaders_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<qulonglong>("dataBytes");
    QTest::addColumn<QString>("message"); // "" = accepted
    const auto t = [](const char *name, const char *dtype, const char *shape, int begin, int end) {
        return QByteArray("\"") + name + "\": {\"dtype\": \"" + dtype + "\", \"shape\": " + shape +
               ", \"data_offsets\": [" + QByteArray::number(begin) + ", " +
               QByteArray::number(end) + "]}";
    };
    QTest::newRow("valid, metadata, out of order")
        << "{\"__metadata__\": {\"format\": \"pt\"}, " + t("b", "F16", "[2]", 8, 12) + ", " +
               t("a", "F32", "[2]", 0, 8) + "}"
        << 12ull << "";
    QTest::newRow("overlap") << "{" + t("a", "F32", "[2]", 0, 8) + ", " +
                                    t("b", "F32", "[2]", 4, 12) + "}"
                             << 12ull << "tensor 'b' overlaps tensor 'a' (bytes 4 to 8)";
    QTest::newRow("gap") << "{" + t("a", "F32", "[2]", 0, 8) + ", " + t("b", "F32", "[2]", 12, 20) +
                                "}"
                         << 20ull << "a gap of 4 bytes before tensor 'b' (at byte 8)";
    QTest::newRow("past the end") << "{" + t("a", "F32", "[2]", 0, 8) + "}" << 4ull
                                  << "tensor 'a' points past the end of the file";
    QTest::newRow("bytes left over") << "{" + t("a", "F32", "[2]", 0, 8) + "}" << 12ull
                                     << "4 bytes after the last tensor belong to no tensor";
    QTest::newRow("unknown dtype")
        << "{" + t("h.0.attn.c_attn.weight", "F17", "[2]", 0, 8) + "}" << 8ull
        << "tensor 'h.0.attn.c_attn.weight' has the unknown dtype 'F17'";
    QTest::newRow("size disagrees") << "{" + t("a", "F32", "[3]", 0, 8) + "}" << 8ull
                                    << "tensor 'a' has 8 bytes of data but its shape and dtype "
                                       "F32 need 12";
    QTest::newRow("negative size") << "{" + t("a", "F32", "[-2]", 0, 8) + "}" << 8ull
                                   << "tensor 'a''s shape entry must be a whole number >= 0";
    QTest::newRow("overflowing shape")
        << "{" + t("a", "F64", "[4294967296, 4294967296]", 0, 8) + "}" << 8ull
        << "tensor 'a' has a shape too large for any file";
    QTest::newRow("end before begin") << "{" + t("a", "F32", "[0]", 8, 0) + "}" << 8ull
                                      << "tensor 'a' ends (0) before it begins (8)";
    QTest::newRow("no offsets") << QByteArray("{\"a\": {\"dtype\": \"F32\", \"shape\": [1]}}")
                                << 4ull << "tensor 'a' has no \"data_offsets\"";
    QTest::newRow("not JSON") << QByteArray("{\"a\": ") << 0ull
                              << "the header is not a JSON object";
    QTest::newRow("a list") << QByteArray("[1, 2]") << 0ull << "the header is not a JSON object";
}

void TestSafetensorsFile::refusesBadHeaders()
{
    QFETCH(QByteArray, header);
    QFETCH(qulonglong, dataBytes);
    QFETCH(QString, message);
    const QString error =
        errorOf([&] { SafetensorsFile::parseHeader(header.toStdString(), dataBytes, "m.st"); });
    if (message.isEmpty()) {
        QCOMPARE(error, QStringLiteral("(no error)"));
        const SafetensorsHeader parsed =
            SafetensorsFile::parseHeader(header.toStdString(), dataBytes, "m.st");
        QCOMPARE(parsed.entries.size(), size_t(2));
        QCOMPARE(parsed.entries[0].name, std::string("a")); // sorted by offset
        QCOMPARE(parsed.metadata.at("format"), std::string("pt"));
        return;
    }
    QVERIFY2(error.startsWith("m.st: ") && error.contains(message), qPrintable(error));
}

void TestSafetensorsFile::refusesBadFiles_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    const QByteArray header = "{\"a\": {\"dtype\": \"F32\", \"shape\": [4], \"data_offsets\": "
                              "[0, 16]}}";
    QTest::newRow("data truncated")
        << fileBytes(header, QByteArray(10, '\0')) << "points past the end of the file";
    QTest::newRow("header truncated") << fileBytes(header.left(20), {}, header.size())
                                      << "the file is truncated: its header needs";
    QTest::newRow("header over 100 MiB")
        << fileBytes(header, {}, 200ull << 20) << "more than the 100 MiB HeadLens accepts";
    QTest::newRow("shorter than 8 bytes") << QByteArray("abc") << "shorter than the 8 bytes";
    QTest::newRow("empty") << QByteArray() << "shorter than the 8 bytes";
}

void TestSafetensorsFile::refusesBadFiles()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = writeFile(dir, bytes);
    const QString error = errorOf([&] { SafetensorsFile::open(path.toStdString()); });
    QVERIFY2(error.startsWith(path) && error.contains(message), qPrintable(error));
    const QString missing = errorOf([&] { SafetensorsFile::open("/nonexistent/m.safetensors"); });
    QVERIFY2(missing.startsWith("Cannot open /nonexistent/m.safetensors"), qPrintable(missing));
}

void TestSafetensorsFile::readsEveryFloatDtype()
{
    // 1.5 as F32, F16 (0x3E00) and BF16 (0x3FC0), then an I64 that is refused on reading.
    QByteArray data;
    const float f = 1.5f;
    data.append(reinterpret_cast<const char *>(&f), 4);
    data.append("\x00\x3E", 2);
    data.append("\xC0\x3F", 2);
    data.append(QByteArray(8, '\0'));
    const QByteArray header =
        "{\"f\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]}, "
        "\"h\": {\"dtype\": \"F16\", \"shape\": [1, 1], \"data_offsets\": [4, 6]}, "
        "\"b\": {\"dtype\": \"BF16\", \"shape\": [1], \"data_offsets\": [6, 8]}, "
        "\"i\": {\"dtype\": \"I64\", \"shape\": [], \"data_offsets\": [8, 16]}}";
    QTemporaryDir dir;
    const SafetensorsFile file =
        SafetensorsFile::open(writeFile(dir, fileBytes(header, data)).toStdString());
    for (const char *name : {"f", "h", "b"}) {
        const Tensor t = file.tensor(*file.find(name));
        QCOMPARE(t.numel(), 1);
        QCOMPARE(t.data()[0], 1.5f);
    }
    QCOMPARE(file.find("h")->shape, (std::vector<int64_t>{1, 1}));
    QVERIFY(file.find("missing") == nullptr);
    const QString error = errorOf([&] { file.tensor(*file.find("i")); });
    QVERIFY2(error.contains("tensor 'i' is stored as I64, but HeadLens reads weights stored as "
                            "F32, F16 or BF16"),
             qPrintable(error));
}

void TestSafetensorsFile::halfPrecision_data()
{
    QTest::addColumn<int>("bits");
    QTest::addColumn<bool>("brain"); // bfloat16 rather than IEEE half
    QTest::addColumn<float>("value");
    QTest::newRow("1") << 0x3C00 << false << 1.0f;
    QTest::newRow("-2") << 0xC000 << false << -2.0f;
    QTest::newRow("largest half") << 0x7BFF << false << 65504.0f;
    QTest::newRow("smallest subnormal") << 0x0001 << false << std::ldexp(1.0f, -24);
    QTest::newRow("largest subnormal") << 0x03FF << false << 1023.0f * std::ldexp(1.0f, -24);
    QTest::newRow("infinity") << 0x7C00 << false << INFINITY;
    QTest::newRow("-0") << 0x8000 << false << -0.0f;
    QTest::newRow("bf16 1") << 0x3F80 << true << 1.0f;
    QTest::newRow("bf16 -5") << 0xC0A0 << true << -5.0f;
    QTest::newRow("bf16 large") << 0x7E96 << true << 9.9692e37f;
}

void TestSafetensorsFile::halfPrecision()
{
    QFETCH(int, bits);
    QFETCH(bool, brain);
    QFETCH(float, value);
    const float actual = brain ? bfloat16ToFloat(uint16_t(bits)) : halfToFloat(uint16_t(bits));
    HL_COMPARE_NEAR(actual, value, 1e-4, 0.0);
    QCOMPARE(std::signbit(actual), std::signbit(value));
}

void TestSafetensorsFile::readsTheTinyCheckpoint()
{
    const SafetensorsFile file =
        SafetensorsFile::open(HEADLENS_TEST_DATA "/gpt2/tiny/model.safetensors");
    const SafetensorsEntry *attn = file.find("h.1.attn.c_attn.weight");
    QVERIFY(attn);
    QCOMPARE(attn->shape, (std::vector<int64_t>{16, 48}));
    QCOMPARE(file.find("h.0.attn.bias")->shape, (std::vector<int64_t>{1, 1, 32, 32}));
    QCOMPARE(file.metadata().at("format"), std::string("pt"));
}

HEADLENS_TEST_APPLESS_MAIN(TestSafetensorsFile)
#include "tst_safetensorsfile.moc"
