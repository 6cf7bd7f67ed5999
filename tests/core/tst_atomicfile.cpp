// Tests of AtomicFile: new and replaced files, and failures that leave nothing half-written.
#include "io/atomicfile.h"
#include "testmain.h"
#include "util/inputerror.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace headlens;

namespace {

QByteArray contentsOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(unreadable)");
}

mode_t modeOf(const QString &path)
{
    struct stat info;
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? (info.st_mode & 07777) : 0;
}

} // namespace

class TestAtomicFile : public QObject
{
    Q_OBJECT

private slots:
    void writesNewFile();
    void replacesAndKeepsMode();
    void failureLeavesNothingBehind_data();
    void failureLeavesNothingBehind();
};

void TestAtomicFile::writesNewFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("out.bin");
    const std::string bytes("a\0b\xff", 4);
    AtomicFile::write(path.toStdString(), bytes);
    QCOMPARE(contentsOf(path), QByteArray(bytes.data(), 4));
    const mode_t mask = ::umask(022); // read the umask the way a shell does
    ::umask(mask);
    QCOMPARE(modeOf(path), mode_t(0666 & ~mask));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"out.bin"}); // no temp left
}

void TestAtomicFile::replacesAndKeepsMode()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("out.txt");
    AtomicFile::write(path.toStdString(), "old contents, longer than the new");
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0600) == 0);
    AtomicFile::write(path.toStdString(), "new");
    QCOMPARE(contentsOf(path), QByteArray("new"));
    QCOMPARE(modeOf(path), mode_t(0600));
}

void TestAtomicFile::failureLeavesNothingBehind_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("reason");
    QTest::newRow("directory missing") << "missing/out.npy"
                                       << "No such file or directory";
    QTest::newRow("path is a directory") << "folder"
                                         << "Is a directory";
}

void TestAtomicFile::failureLeavesNothingBehind()
{
    QFETCH(QString, target);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    // A directory with a file in it, which a failed write must not disturb.
    QVERIFY(QDir(dir.path()).mkdir("folder"));
    AtomicFile::write(dir.filePath("folder/keep.txt").toStdString(), "kept");
    const QString path = dir.filePath(target);
    QString message;
    try {
        AtomicFile::write(path.toStdString(), "data");
    } catch (const InputError &error) {
        message = QString::fromStdString(error.what());
    }
    QCOMPARE(message, "Cannot write " + path + ": " + reason);
    QCOMPARE(contentsOf(dir.filePath("folder/keep.txt")), QByteArray("kept"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
             QStringList{"folder"});
}

HEADLENS_TEST_APPLESS_MAIN(TestAtomicFile)
#include "tst_atomicfile.moc"
