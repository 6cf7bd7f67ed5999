// Tests of GgufFile and the ggml block decoders: the script's files read back value for value,
// and every malformed field refused with a sentence naming it.
#include "errorof.h"
#include "ggufbytes.h"
#include "ggufdata.h"
#include "npzgolden.h"

#include "io/ggmlblocks.h"
#include "io/gguffile.h"
#include "model/weightview.h"
#include "testmain.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace headlens;
using headlens::test::errorOf;
using headlens::test::GgufBytes;
using headlens::test::kGgufData;

namespace {

const char *const kTypes[] = {"F32",  "F16",  "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0",
                              "Q5_1", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K"};

GgufContents parsed(const std::string &bytes)
{
    return GgufFile::parse(reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size(),
                           "t.gguf");
}

/// A file that parses: one F32 tensor of 4 values and one string.
GgufBytes valid()
{
    GgufBytes g;
    g.text("general.architecture", "llama");
    g.tensor("a", {4}, 0, GgufBytes::floats({1, 2, 3, 4}));
    return g;
}

/// Every bit of two floats equal (NaN included).
bool sameBits(float a, float b)
{
    return std::memcmp(&a, &b, 4) == 0;
}

} // namespace

class TestGgufFile : public QObject
{
    Q_OBJECT

private slots:
    void readsAValidFile();
    void refusesBadFields_data();
    void refusesBadFields();
    void refusesAFileThatIsNotGguf();
    void readsTheScriptsFile();
    void decodesEveryTypeAsTheScript_data();
    void decodesEveryTypeAsTheScript();
    void readsVersionTwoWithItsAlignment();
    void quantizedColumnsAreTheirRowsSlices();
    void namesEveryGgmlType();
};

void TestGgufFile::readsAValidFile()
{
    GgufBytes g = valid();
    g.u32("llama.block_count", 2).f32("llama.rope.freq_base", 10000.f).boolean("b", true);
    g.texts("tokenizer.ggml.tokens", {"a", "bc"}).numbers("s", {0.5f, -1.f});
    g.tensor("q", {32, 2}, 8, std::string(2 * 34, '\x01'));
    const GgufContents c = parsed(g.build());
    QCOMPARE(c.version, 3u);
    QCOMPARE(c.alignment, uint64_t(32));
    QCOMPARE(c.metadata.at("general.architecture").text, std::string("llama"));
    QCOMPARE(c.metadata.at("llama.block_count").number, 2.0);
    QVERIFY(c.metadata.at("llama.block_count").isInteger());
    QVERIFY(!c.metadata.at("llama.rope.freq_base").isInteger());
    QCOMPARE(c.metadata.at("b").number, 1.0);
    QCOMPARE(c.metadata.at("tokenizer.ggml.tokens").texts, (std::vector<std::string>{"a", "bc"}));
    QCOMPARE(c.metadata.at("s").numbers, (std::vector<double>{0.5, -1.0}));
    QCOMPARE(c.tensors.size(), size_t(2));
    const GgufTensorInfo &q = c.tensors[1];
    QCOMPARE(q.name, std::string("q"));
    QCOMPARE(q.shape(), (std::vector<int64_t>{2, 32})); // PyTorch's order: ne reversed
    QCOMPARE(q.bytes, uint64_t(68));
    QVERIFY(q.format == StoredFormat::Q8_0);
    QCOMPARE(q.typeName(), std::string("Q8_0"));
    // Offsets count from the data section, which starts at the next multiple of 32.
    QCOMPARE(c.tensors[0].begin % 32, uint64_t(0));
    QCOMPARE(q.begin - c.tensors[0].begin, uint64_t(32));
}

void TestGgufFile::refusesBadFields_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    auto row = [](const char *name, const GgufBytes &g, const char *expected) {
        const std::string b = g.build();
        QTest::newRow(name) << QByteArray(b.data(), int(b.size())) << QString(expected);
    };
    GgufBytes g = valid();
    g.version = 1;
    row("version 1", g, "GGUF version 1 (2023's first draft)");
    g = valid();
    g.version = 4;
    row("version 4", g, "its GGUF version is 4 (HeadLens reads versions 2 and 3)");
    g = valid();
    g.version = 0x03000000;
    row("big-endian", g, "is a big-endian GGUF file");
    const std::string cut = valid().build().substr(0, 40);
    QTest::newRow("cut inside a key") << QByteArray(cut.data(), int(cut.size()))
                                      << QString("the file ends inside metadata key 0");
    g = valid();
    g.declaredKeys = 5;
    row("more keys than written", g, "metadata '' is given twice"); // the padding read as keys
    g = valid();
    g.declaredTensors = uint64_t(1) << 40;
    row("absurd tensor count", g, "more than HeadLens accepts");
    g = valid();
    g.raw("k", std::string("\x08\0\0\0", 4) + std::string("\xff\xff\xff\x7f\0\0\0\0", 8));
    row("string past the end", g, "metadata 'k' claims a string of");
    g = valid();
    g.raw("k", std::string("\x0d\0\0\0", 4));
    row("unknown value type", g, "metadata 'k' has the unknown value type 13");
    g = valid();
    g.raw("k", std::string("\x09\0\0\0\x09\0\0\0", 8) + std::string(8, '\0'));
    row("array of arrays", g, "metadata 'k' is an array of arrays");
    g = valid();
    g.raw("k", std::string("\x09\0\0\0\x06\0\0\0", 8) + std::string("\xff\xff\xff\xff\0\0\0\0", 8));
    row("array longer than the file", g, "claims 4294967295 elements");
    g = valid();
    g.u32("k", 1).u32("k", 2);
    row("repeated key", g, "metadata 'k' is given twice");
    g = valid();
    g.u32("general.alignment", 48);
    row("alignment not a power of two", g, "general.alignment must be a power of two");
    g = valid();
    g.f32("general.alignment", 32.f);
    row("alignment a float", g, "general.alignment must be a power of two stored as a uint32");
    g = valid();
    g.tensor("five", {1, 1, 1, 1, 1}, 0, GgufBytes::floats({1}));
    row("five axes", g, "tensor 'five' has 5 axes");
    g = valid();
    g.tensor("odd", {4}, 99, GgufBytes::floats({1}));
    row("unknown type", g, "tensor 'odd' has the type id 99, which ggml does not define");
    g = valid();
    g.tensor("part", {16}, 2, std::string(18, '\0'));
    row("rows not whole blocks", g, "tensor 'part''s rows of 16 values are not whole Q4_0 blocks");
    g = valid();
    g.tensor("huge", {uint64_t(1) << 40, uint64_t(1) << 40}, 0, GgufBytes::floats({1}));
    row("element count overflow", g, "overflow its element count");
    g = valid();
    g.tensor("wide", {uint64_t(1) << 31, uint64_t(1) << 31}, 0, GgufBytes::floats({1}));
    row("byte size overflow", g,
        "tensor 'wide''s 4611686018427387904 values overflow its byte size");
    g = valid();
    g.tensor("shifted", {1}, 0, GgufBytes::floats({1}), 36);
    row("offset not aligned", g, "tensor 'shifted''s offset 36 is not a multiple");
    g = valid();
    g.tensor("long", {4096}, 0, GgufBytes::floats({1}));
    row("data past the end", g, "tensor 'long' needs 16384 bytes");
    g = valid();
    g.tensor("twin", {4}, 0, GgufBytes::floats({1, 2, 3, 4}), 0);
    row("overlap", g, "tensors 'a' and 'twin' overlap");
    g = valid();
    g.tensor("a", {4}, 0, GgufBytes::floats({1, 2, 3, 4}));
    row("repeated name", g, "tensor 'a' is listed twice");
    g = valid();
    g.tensor("noaxes", {}, 0, "");
    row("no axes", g, "tensor 'noaxes' has 0 axes");
}

void TestGgufFile::refusesBadFields()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    const std::string b(bytes.constData(), size_t(bytes.size()));
    const QString error = errorOf([&] { parsed(b); });
    QVERIFY2(error.startsWith("t.gguf"), qPrintable(error));
    QVERIFY2(error.contains(expected), qPrintable(error));
}

void TestGgufFile::refusesAFileThatIsNotGguf()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("model.gguf");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"not\": \"gguf\"}");
    file.close();
    QVERIFY(!GgufFile::hasMagic(path.toStdString()));
    const QString error = errorOf([&] { GgufFile::open(path.toStdString()); });
    QVERIFY2(error.contains(path + ": it does not start with GGUF's magic bytes"),
             qPrintable(error));
    QVERIFY(errorOf([&] {
                GgufFile::open(dir.filePath("missing.gguf").toStdString());
            }).contains("Cannot open"));
    QVERIFY(
        errorOf([&] { GgufFile::open(dir.path().toStdString()); }).contains("not a regular file"));
}

/// quants.gguf as make_gguf_tiny.py wrote it: one (3, 512) tensor per type.
void TestGgufFile::readsTheScriptsFile()
{
    const GgufFile file = GgufFile::open(kGgufData + "quants.gguf");
    QVERIFY(GgufFile::hasMagic(kGgufData + "quants.gguf"));
    QCOMPARE(file.version(), 3u);
    QCOMPARE(file.tensors().size(), std::size(kTypes));
    for (const char *type : kTypes) {
        const GgufTensorInfo *t = file.tensor(std::string("t.") + type);
        QVERIFY2(t, type);
        QCOMPARE(t->typeName(), std::string(type));
        QCOMPARE(t->shape(), (std::vector<int64_t>{3, 512}));
        QVERIFY(t->format.has_value());
        QCOMPARE(t->bytes, uint64_t(storedBytes(*t->format, 3 * 512)));
    }
}

void TestGgufFile::decodesEveryTypeAsTheScript_data()
{
    QTest::addColumn<QString>("type");
    for (const char *type : kTypes)
        QTest::newRow(type) << QString(type);
}

/// Every value equals the script's dequantization (ggml-quants.c's formulas in NumPy float32),
/// bit for bit, and lies near the floats it was made from.
void TestGgufFile::decodesEveryTypeAsTheScript()
{
    QFETCH(QString, type);
    const GgufFile file = GgufFile::open(kGgufData + "quants.gguf");
    const auto expected = test::npzGolden(kGgufData + "quants_expected.npz");
    const GgufTensorInfo &t = *file.tensor("t." + type.toStdString());
    std::vector<float> values(size_t(t.numel()));
    widenFloats(file.bytes(t), *t.format, t.numel(), values.data());
    const Tensor &want = expected.at(type.toStdString());
    const Tensor &source = expected.at("source");
    QCOMPARE(want.numel(), t.numel());
    int differing = 0;
    float worst = 0;
    for (int64_t i = 0; i < t.numel(); ++i) {
        differing += !sameBits(values[size_t(i)], want.data()[i]);
        worst = std::max(worst, std::abs(values[size_t(i)] - source.data()[i]));
    }
    QCOMPARE(differing, 0);
    // Two bits per value keep the values within a third of their range; eight within 1%.
    const float bound = type == "Q2_K" ? 1.0f : type == "Q3_K" ? 0.5f : 0.3f;
    QVERIFY2(worst < bound, qPrintable(QString::number(worst)));
}

void TestGgufFile::readsVersionTwoWithItsAlignment()
{
    const GgufFile file = GgufFile::open(kGgufData + "quants_v2.gguf");
    QCOMPARE(file.version(), 2u);
    QCOMPARE(file.number("general.alignment").value_or(0), 64.0);
    const auto expected = test::npzGolden(kGgufData + "quants_expected.npz");
    QVERIFY(!file.tensors().empty());
    for (const GgufTensorInfo &t : file.tensors()) {
        QCOMPARE((t.begin - (file.tensors().front().begin % 64)) % 64, uint64_t(0));
        std::vector<float> values(size_t(t.numel()));
        widenFloats(file.bytes(t), *t.format, t.numel(), values.data());
        const Tensor &want = expected.at("v2." + t.typeName());
        for (int64_t i = 0; i < t.numel(); ++i)
            QVERIFY(sameBits(values[size_t(i)], want.data()[i]));
    }
}

/// A quantized matrix's columns (decoded from the blocks they fall in) are its rows' slices.
void TestGgufFile::quantizedColumnsAreTheirRowsSlices()
{
    const GgufFile file = GgufFile::open(kGgufData + "quants.gguf");
    for (const char *type : {"Q4_K", "Q5_0", "Q6_K"}) {
        const GgufTensorInfo &t = *file.tensor(std::string("t.") + type);
        WeightView view;
        view.bytes = file.bytes(t);
        view.format = *t.format;
        view.rows = 3;
        view.cols = 512;
        const RowMatrix whole = view.widen();
        RowMatrix columns(3, 40);
        view.widenColumns(250, 40, columns.data()); // across a 256-value block's edge
        QCOMPARE(RowMatrix(columns), RowMatrix(whole.middleCols(250, 40)));
        RowMatrix row(1, 512);
        view.widenRows(2, 1, row.data());
        QCOMPARE(RowMatrix(row), RowMatrix(whole.bottomRows(1)));
    }
}

void TestGgufFile::namesEveryGgmlType()
{
    QCOMPARE(std::string(ggmlType(12)->name), std::string("Q4_K"));
    QVERIFY(ggmlType(12)->format == StoredFormat::Q4_K);
    QCOMPARE(std::string(ggmlType(16)->name), std::string("IQ2_XXS"));
    QVERIFY(!ggmlType(16)->format); // located, not decoded
    QCOMPARE(ggmlType(4), nullptr); // Q4_2, removed from ggml
    for (StoredFormat f : {StoredFormat::Q4_0, StoredFormat::Q8_0, StoredFormat::Q6_K})
        QVERIFY(isQuantized(f));
    QCOMPARE(storedBlockBytes(StoredFormat::Q4_K), 144);
    QCOMPARE(storedBytes(StoredFormat::Q6_K, 512), int64_t(420));
}

HEADLENS_TEST_APPLESS_MAIN(TestGgufFile)
#include "tst_gguffile.moc"
