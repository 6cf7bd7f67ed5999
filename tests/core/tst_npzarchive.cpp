// Tests of NpzArchive: archives numpy wrote, round trips, and damaged archives or zip bombs
// refused.
#include "approx.h"
#include "errorof.h"

#include "io/npzarchive.h"
#include "testmain.h"
#include "util/inputerror.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace headlens;
using headlens::test::errorOf;

namespace {

const QString kNpyFolder = QStringLiteral(HEADLENS_TEST_DATA "/npy/");

Tensor countingFrom(std::vector<Axis> axes, float start)
{
    Tensor t{Shape(std::move(axes))};
    for (int64_t i = 0; i < t.numel(); ++i)
        t.data()[i] = start + 0.25f * static_cast<float>(i);
    return t;
}

std::vector<std::string> namesOf(const std::vector<std::pair<std::string, Tensor>> &entries)
{
    std::vector<std::string> names;
    for (const auto &entry : entries)
        names.push_back(entry.first);
    return names;
}

} // namespace

class TestNpzArchive : public QObject
{
    Q_OBJECT

private slots:
    void readsWhatNumpyWrote_data();
    void readsWhatNumpyWrote();
    void roundTrip_data();
    void roundTrip();
    void compressedIsSmaller();
    void emptyArchive();
    void refusesDuplicateNamesOnWrite();
    void refusesDamagedArchives_data();
    void refusesDamagedArchives();
    void refusesTooManyMembersBeforeUnpacking();
};

void TestNpzArchive::readsWhatNumpyWrote_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("numpy.savez (stored)") << "sample_stored.npz";
    QTest::newRow("numpy.savez_compressed (deflated)") << "sample_deflated.npz";
}

void TestNpzArchive::readsWhatNumpyWrote()
{
    QFETCH(QString, file);
    const auto entries = NpzArchive::read((kNpyFolder + file).toStdString());
    // scripts/make_npy_samples.py: grid = arange(6) * 0.5 - 1, a bool mask, int64 ids.
    QCOMPARE(namesOf(entries), (std::vector<std::string>{"grid", "mask", "ids"}));
    const Tensor &grid = entries[0].second;
    QCOMPARE(grid.shape().sizes(), (std::vector<int64_t>{2, 3}));
    for (int64_t i = 0; i < 6; ++i)
        HL_COMPARE_NEAR(grid.data()[i], 0.5 * i - 1.0, 0.0, 0.0);
    const std::vector<float> mask = {0, 0, 1, 0, 1, 1};
    const std::vector<float> ids = {0, 1, 2, 3, 4, 5, -1, -1};
    QCOMPARE(std::vector<float>(entries[1].second.data(), entries[1].second.data() + 6), mask);
    QCOMPARE(std::vector<float>(entries[2].second.data(), entries[2].second.data() + 8), ids);
}

void TestNpzArchive::roundTrip_data()
{
    QTest::addColumn<bool>("compressed");
    QTest::newRow("stored") << false;
    QTest::newRow("deflated") << true;
}

void TestNpzArchive::roundTrip()
{
    QFETCH(bool, compressed);
    // Names with dots, as in a state_dict, and unusual shapes; order must survive.
    const std::vector<std::pair<std::string, Tensor>> entries = {
        {"out_proj.weight", countingFrom({{"r", 3}, {"c", 2}}, -1.0f)},
        {"scalar", countingFrom({}, 42.0f)},
        {"empty", countingFrom({{"r", 0}, {"c", 3}}, 0.0f)},
        {"a", countingFrom({{"b", 2}, {"h", 2}, {"n", 3}, {"n_kv", 4}}, 5.0f)},
    };
    QTemporaryDir dir;
    const std::string path = dir.filePath("trace.npz").toStdString();
    NpzArchive::write(path, entries, compressed);
    const auto back = NpzArchive::read(path);
    QCOMPARE(namesOf(back), namesOf(entries));
    for (size_t i = 0; i < entries.size(); ++i) {
        const Tensor &expected = entries[i].second;
        QCOMPARE(back[i].second.shape().sizes(), expected.shape().sizes());
        HL_COMPARE_TENSORS_NEAR(back[i].second.view(expected.shape()), expected, 0.0, 0.0);
    }
}

void TestNpzArchive::compressedIsSmaller()
{
    // 64 KiB of zeros: stored it stays that big, deflated it shrinks to almost nothing.
    const std::vector<std::pair<std::string, Tensor>> entries = {
        {"zeros", Tensor(Shape{{"n", 128}, {"d", 128}})}};
    QTemporaryDir dir;
    const QString stored = dir.filePath("stored.npz"), deflated = dir.filePath("deflated.npz");
    NpzArchive::write(stored.toStdString(), entries, false);
    NpzArchive::write(deflated.toStdString(), entries, true);
    QVERIFY(QFile(stored).size() > 128 * 128 * 4);
    QVERIFY(QFile(deflated).size() < 2048);
    QCOMPARE(NpzArchive::read(deflated.toStdString()).at(0).second.numel(), int64_t(128 * 128));
}

void TestNpzArchive::emptyArchive()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("empty.npz").toStdString();
    NpzArchive::write(path, {}, false);
    QVERIFY(NpzArchive::read(path).empty());
}

void TestNpzArchive::refusesDuplicateNamesOnWrite()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("twice.npz");
    const Tensor t(Shape{{"n", 2}});
    const QString message = errorOf([&] {
        NpzArchive::write(path.toStdString(), {{"x", t}, {"x", t}}, false);
    });
    QCOMPARE(message, "Cannot write " + path + ": two arrays are named x.");
    QVERIFY(!QFile::exists(path));
}

void TestNpzArchive::refusesDamagedArchives_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("problem");
    // Made by scripts/make_npy_samples.py (bad_archives).
    QTest::newRow("not a zip") << "f4_2x3.npy"
                               << " as .npz: Not a zip archive";
    QTest::newRow("member not .npy") << "bad_not_npy_member.npz"
                                     << ", member notes.txt: not a .npy array";
    QTest::newRow("member .npy truncated") << "bad_broken_member.npz"
                                           << ", member grid.npy: the header promises shape (2, 3)";
    QTest::newRow("member twice") << "bad_duplicate_member.npz"
                                  << " as .npz: two members have the same name";
    QTest::newRow("CRC mismatch") << "bad_crc.npz"
                                  << ", member grid.npy: cannot unpack: CRC";
    QTest::newRow("stored size lie") << "bad_stored_size_lie.npz"
                                     << ", member grid.npy: the declared size (216 bytes)";
    QTest::newRow("deflated size too small") << "bad_deflated_size_short.npz"
                                             << ", member grid.npy: the member declares 100 bytes "
                                                "but holds more";
    QTest::newRow("zip bomb ratio") << "bad_zip_bomb.npz"
                                    << ", member grid.npy: the declared size (2147483648 bytes)";
    QTest::newRow("over 4 GiB") << "bad_over_4gib.npz"
                                << ", member grid.npy: the member unpacks to 5368709120 bytes";
    // Tiny files whose headers ask for gigabytes or millions of members (huge_declarations):
    // refused while the archive is opened, before a member is unpacked.
    QTest::newRow("3 GiB stored in 306 bytes") << "bad_stored_beyond_archive.npz"
                                               << " as .npz: Not a zip archive";
    QTest::newRow("65535 members in 22 bytes") << "bad_member_count.npz"
                                               << " as .npz: Zip archive inconsistent";
    QTest::newRow("2^40 members (zip64) in 98 bytes") << "bad_zip64_member_count.npz"
                                                      << " as .npz: Zip archive inconsistent";
}

void TestNpzArchive::refusesDamagedArchives()
{
    QFETCH(QString, file);
    QFETCH(QString, problem);
    const QString path = kNpyFolder + file;
    const QString message = errorOf([&] { NpzArchive::read(path.toStdString()); });
    QVERIFY2(message.contains(path + problem), qPrintable(message));
}

/// A well-formed archive of kMaxMembers + 1 members is refused for its count alone.
void TestNpzArchive::refusesTooManyMembersBeforeUnpacking()
{
    std::vector<std::pair<std::string, Tensor>> entries;
    const Tensor one(Shape{{"n", 1}});
    for (uint64_t i = 0; i <= NpzArchive::kMaxMembers; ++i)
        entries.emplace_back("a" + std::to_string(i), one);
    QTemporaryDir dir;
    const QString path = dir.filePath("many.npz");
    NpzArchive::write(path.toStdString(), entries, false);
    const QString message = errorOf([&] { NpzArchive::read(path.toStdString()); });
    QCOMPARE(message, path + " declares 65536 members, more than the 65535 HeadLens accepts. The "
                             "archive is damaged.");
}

HEADLENS_TEST_APPLESS_MAIN(TestNpzArchive)
#include "tst_npzarchive.moc"
