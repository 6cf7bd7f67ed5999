// Tests of Checkpoint: one file or the shards of an index, and each way an index can be wrong.
#include "approx.h"
#include "errorof.h"
#include "gpt2golden.h"

#include "model/checkpoint.h"
#include "model/transformermodel.h"
#include "testmain.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using headlens::test::errorOf;
using headlens::test::kGpt2Data;

namespace {

const QString kSharded = QString::fromStdString(kGpt2Data) + "tiny_sharded/";
const QString kIndex = QStringLiteral("model.safetensors.index.json");

/// A copy of tiny_sharded in `dir` with its index's weight_map edited by `edit`.
template <typename Edit> void copyShardedWith(const QString &dir, Edit edit)
{
    for (const QString &name : QDir(kSharded).entryList(QDir::Files))
        QVERIFY(QFile::copy(kSharded + name, dir + "/" + name));
    QFile file(dir + "/" + kIndex);
    QVERIFY(file.open(QIODevice::ReadWrite));
    QJsonObject index = QJsonDocument::fromJson(file.readAll()).object();
    QJsonObject map = index["weight_map"].toObject();
    edit(map);
    index["weight_map"] = map;
    file.resize(0);
    file.write(QJsonDocument(index).toJson());
}

} // namespace

class TestCheckpoint : public QObject
{
    Q_OBJECT

private slots:
    void shardsHoldTheSameModel();
    void findsEveryTensorInItsShard();
    void refusesBrokenIndexes_data();
    void refusesBrokenIndexes();
    void pytorchBinIsRefusedWithTheConversion();
};

/// tiny_sharded is tiny's weights in BF16 (exact: make_gpt2_tiny.py rounds them) over two
/// shards: the same parameters, the same run.
void TestCheckpoint::shardsHoldTheSameModel()
{
    const TransformerModel f32 = TransformerModel::open(kGpt2Data + "tiny");
    const TransformerModel sharded = TransformerModel::open(kSharded.toStdString());
    QVERIFY(sharded.weights().embedding.widen() == f32.weights().embedding.widen());
    QVERIFY(sharded.weights().layers[1].attention.wO == f32.weights().layers[1].attention.wO);
    QVERIFY(sharded.weights().layers[1].upWeight.widen() ==
            f32.weights().layers[1].upWeight.widen());
    QVERIFY(sharded.weights().finalNormBias == f32.weights().finalNormBias);
    const std::vector<int> ids = headlens::test::gpt2Golden(2).ids;
    TransformerRunOptions options;
    options.logitsForEveryPosition = true;
    const TransformerRun a = f32.run(ids, options), b = sharded.run(ids, options);
    HL_COMPARE_TENSORS_NEAR(b.attention, a.attention, 0.0, 1e-6);
    HL_COMPARE_TENSORS_NEAR(b.logits, a.logits, 1e-5, 1e-5);
}

void TestCheckpoint::findsEveryTensorInItsShard()
{
    const Checkpoint c = Checkpoint::open(kSharded.toStdString());
    QCOMPARE(QString::fromStdString(c.path()), kSharded + kIndex);
    const CheckpointTensor first = c.find("h.0.mlp.c_fc.weight"), second = c.find("ln_f.bias");
    QVERIFY(first.present && second.present);
    QVERIFY(QString::fromStdString(first.path).endsWith("model-00001-of-00002.safetensors"));
    QVERIFY(QString::fromStdString(second.path).endsWith("model-00002-of-00002.safetensors"));
    QCOMPARE(first.view().rows, int64_t(16));
    QCOMPARE(first.view().cols, int64_t(64));
    QCOMPARE(second.view().rows, int64_t(1));
    QVERIFY(second.view().format == StoredFormat::BF16);
    QVERIFY(!c.find("lm_head.weight").present);
    QCOMPARE(c.bytesOnDisk(),
             uint64_t(QFileInfo(kSharded + "model-00001-of-00002.safetensors").size() +
                      QFileInfo(kSharded + "model-00002-of-00002.safetensors").size()));
}

void TestCheckpoint::refusesBrokenIndexes_data()
{
    QTest::addColumn<int>("breakage");
    QTest::addColumn<QStringList>("fragments"); // "%1" is the copy's folder
    QTest::newRow("missing shard")
        << 0
        << QStringList{"%1/" + kIndex + " lists the shard gone.safetensors",
                       "%1/gone.safetensors is missing", "Download the missing shard"};
    QTest::newRow("tensor not in its shard")
        << 1
        << QStringList{"%1/" + kIndex +
                           " places tensor 'ln_f.bias' in model-00001-of-00002.safetensors",
                       "which does not hold it", "Download the index and its shards again"};
    QTest::newRow("shard outside the folder")
        << 2
        << QStringList{"%1/" + kIndex + ": tensor 'wte.weight' is placed in \"../x.safetensors\"",
                       "not a file name in the model folder"};
    QTest::newRow("the folder itself as a shard")
        << 6
        << QStringList{"%1/" + kIndex + ": tensor 'wte.weight' is placed in \".\"",
                       "not a file name in the model folder"};
    QTest::newRow("no weight_map")
        << 3 << QStringList{"%1/" + kIndex + " is not a safetensors index", "\"weight_map\""};
    // Resource caps: refused before a shard is opened, or before the index is read.
    QTest::newRow("10001 shards")
        << 4
        << QStringList{"%1/" + kIndex + " names 10001 shard files, more than the 10000",
                       "The index is damaged."};
    QTest::newRow("index over 16 MiB")
        << 5
        << QStringList{"%1/" + kIndex +
                       " is 16777217 bytes, more than the 16 MiB HeadLens "
                       "accepts for a safetensors index"};
}

void TestCheckpoint::refusesBrokenIndexes()
{
    QFETCH(int, breakage);
    QFETCH(QStringList, fragments);
    QTemporaryDir dir;
    copyShardedWith(dir.path(), [&](QJsonObject &map) {
        if (breakage == 0)
            map["h.1.ln_2.bias"] = "gone.safetensors";
        if (breakage == 1)
            map["ln_f.bias"] = "model-00001-of-00002.safetensors";
        if (breakage == 2)
            map["wte.weight"] = "../x.safetensors";
        if (breakage == 6)
            map["wte.weight"] = ".";
        for (int i = 0; breakage == 4 && i + 1 < int(Checkpoint::kMaxShards); ++i) // + 2 shards
            map["t" + QString::number(i)] = "s" + QString::number(i) + ".safetensors";
    });
    if (breakage == 3) {
        QFile file(dir.path() + "/" + kIndex);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"metadata\": {}}");
    }
    if (breakage == 5) { // sparse: nothing is written
        QFile file(dir.path() + "/" + kIndex);
        QVERIFY(file.resize(qint64(Checkpoint::kMaxIndexBytes) + 1));
    }
    const QString error = errorOf([&] { Checkpoint::open(dir.path().toStdString()); });
    for (const QString &fragment : fragments)
        QVERIFY2(error.contains(fragment.arg(dir.path())),
                 qPrintable(error + " lacks " + fragment));
}

void TestCheckpoint::pytorchBinIsRefusedWithTheConversion()
{
    QTemporaryDir dir;
    QFile bin(dir.path() + "/pytorch_model.bin");
    QVERIFY(bin.open(QIODevice::WriteOnly));
    bin.write("PK");
    bin.close();
    const QString error = errorOf([&] { Checkpoint::open(dir.path().toStdString()); });
    QVERIFY2(error.startsWith("Cannot open " + dir.path() + "/model.safetensors"),
             qPrintable(error));
    QVERIFY2(error.contains("only pytorch_model.bin") && error.contains("safe_serialization=True"),
             qPrintable(error));
}

HEADLENS_TEST_APPLESS_MAIN(TestCheckpoint)
#include "tst_checkpoint.moc"
