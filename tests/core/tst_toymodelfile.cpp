// Tests of ToyModelFile's refusals: damaged settings and oversized files, each named.
#include "errorof.h"

#include "io/npzarchive.h"
#include "testmain.h"
#include "train/toymodelfile.h"
#include "train/trainer.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace headlens;
using headlens::test::errorOf;

class TestToyModelFile : public QObject
{
    Q_OBJECT

private slots:
    void damagedSettingsAreRefused_data();
    void damagedSettingsAreRefused();
    void oversizedFileIsRefusedUnread();
};

void TestToyModelFile::damagedSettingsAreRefused_data()
{
    QTest::addColumn<int>("field");
    QTest::addColumn<float>("value");
    QTest::addColumn<QString>("says");
    const float nan = std::numeric_limits<float>::quiet_NaN();
    // The fields of ToyModelFile's header comment: 2 layers, 4 d_model, 5 vocabulary, ...
    QTest::newRow("NaN layers") << 2 << nan
                                << "headlens_toy_settings field 2 holds nan where a whole number "
                                   "from 0 to 2^24 belongs; the file is damaged.";
    QTest::newRow("d_model 1e30") << 4 << 1e30f << "field 4 holds 1000000015047466219876688855040";
    QTest::newRow("negative heads") << 3 << -2.0f << "field 3 holds -2.000000";
    QTest::newRow("half a token") << 5 << 10.5f << "field 5 holds 10.500000";
    QTest::newRow("infinite steps") << 8 << std::numeric_limits<float>::infinity()
                                    << "field 8 holds inf where a whole number from 0 to 2^62";
    // Whole and small enough to read, but a vocabulary no toy model has: refused before the
    // parameters (vocabulary x d_model) are allocated.
    QTest::newRow("vocabulary of 10^8") << 5 << 1e8f << "field 5 holds 100000000.000000";
    QTest::newRow("vocabulary of a million") << 5 << float(1 << 20)
                                             << "holds settings HeadLens cannot use: vocabulary "
                                                "must be between 2 and 64, got 1048576.";
    QTest::newRow("newer format") << 0 << 3.0f
                                  << "was written by a newer HeadLens (toy model "
                                     "format 3): update HeadLens to open it.";
    // Format 2 carries RoPE, K/V heads and dropout after format 1's fields.
    QTest::newRow("format 2 without its fields")
        << 0 << 2.0f << "headlens_toy_settings is too short for format 2; the file is damaged.";
}

void TestToyModelFile::damagedSettingsAreRefused()
{
    QFETCH(int, field);
    QFETCH(float, value);
    QFETCH(QString, says);
    QTemporaryDir dir;
    const QString path = dir.filePath("toy.npz");
    TrainingSettings settings = TrainingSettings::defaultsFor(TaskKind::PreviousToken);
    settings.model = {1, 1, 16, 4, 4, false};
    ToyModelFile::save(path.toStdString(), Trainer(settings).trainedModel());
    auto entries = NpzArchive::read(path.toStdString());
    for (auto &[name, tensor] : entries)
        if (name == "headlens_toy_settings")
            tensor.data()[field] = value;
    NpzArchive::write(path.toStdString(), entries, false);
    const QString message = errorOf([&] { ToyModelFile::load(path.toStdString()); });
    QVERIFY2(message.startsWith(path), qPrintable(message));
    QVERIFY2(message.contains(says), qPrintable(message));
}

/// A sparse file over the cap: refused from its size, before anything is read or unpacked.
void TestToyModelFile::oversizedFileIsRefusedUnread()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("huge.npz");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly) &&
            file.resize(qint64(ToyModelFile::kMaxFileBytes) + 1));
    file.close();
    const QString message = errorOf([&] { ToyModelFile::load(path.toStdString()); });
    QCOMPARE(message, path + " is 16777217 bytes, more than the 16 MiB HeadLens accepts for a toy "
                             "model; it is not one, or it is damaged.");
}

HEADLENS_TEST_APPLESS_MAIN(TestToyModelFile)
#include "tst_toymodelfile.moc"
