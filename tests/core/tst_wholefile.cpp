// Tests of WholeFile: files read whole, and files refused before a byte is read.
#include "errorof.h"

#include "io/wholefile.h"
#include "testmain.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace headlens;
using headlens::test::errorOf;

class TestWholeFile : public QObject
{
    Q_OBJECT

private slots:
    void readsTheBytesUpToTheCap();
    void refusals_data();
    void refusals();
    void textRefusals_data();
    void textRefusals();
};

void TestWholeFile::readsTheBytesUpToTheCap()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("ten");
    const QByteArray bytes("0123\0\xff"
                           "789",
                           10);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly) && file.write(bytes) == 10);
    file.close();
    const std::string read = WholeFile::read(path.toStdString(), 10, "a test file");
    QCOMPARE(QByteArray(read.data(), qsizetype(read.size())), bytes);
}

void TestWholeFile::refusals_data()
{
    QTest::addColumn<QString>("name");      // in a fresh folder; "." is the folder itself
    QTest::addColumn<qint64>("sparseSize"); // a file of that many bytes (no data written)
    QTest::addColumn<QString>("says");      // "%1" is the path
    QTest::newRow("missing") << "gone" << qint64(-1)
                             << "Cannot open %1 as a test file: No such file or directory. "
                                "Check the path.";
    QTest::newRow("a folder") << "." << qint64(-1)
                              << "Cannot open %1 as a test file: it is a folder. Choose the file "
                                 "inside it.";
    QTest::newRow("a FIFO") << "fifo" << qint64(-2)
                            << "Cannot open %1 as a test file: it is not a regular file.";
    // A file of 8 GiB on disk asks for nothing: it is refused from its size alone.
    QTest::newRow("8 GiB against a 1 KiB cap")
        << "huge" << (qint64(8) << 30)
        << "%1 is 8589934592 bytes, more than the 1 KiB HeadLens accepts for a test file; it "
           "is not one, or it is damaged.";
    QTest::newRow("one byte over")
        << "over" << qint64(1025) << "%1 is 1025 bytes, more than the 1 KiB";
}

void TestWholeFile::refusals()
{
    QFETCH(QString, name);
    QFETCH(qint64, sparseSize);
    QFETCH(QString, says);
    QTemporaryDir dir;
    const QString path = name == "." ? dir.path() : dir.filePath(name);
    if (sparseSize == -2)
        QCOMPARE(::mkfifo(path.toLocal8Bit().constData(), 0600), 0);
    if (sparseSize >= 0) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(sparseSize));
    }
    const QString message =
        errorOf([&] { WholeFile::read(path.toStdString(), 1024, "a test file"); });
    QVERIFY2(message.startsWith(says.arg(path)), qPrintable(message));
}

// readText: the files of a model folder. A FIFO in config.json's place used to block the reader
// (and the window's worker) until some program wrote to it; now it is refused at once.
void TestWholeFile::textRefusals_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("kind"); // 0 missing, 1 folder, 2 FIFO, 3 dangling symbolic link
    QTest::addColumn<QString>("says");
    QTest::newRow("missing") << "config.json" << 0
                             << "Cannot read %1 (No such file or directory): put it back.";
    QTest::newRow("a folder") << "config.json" << 1
                              << "Cannot read %1 (it is a folder): put it back.";
    QTest::newRow("a FIFO") << "config.json" << 2
                            << "Cannot read %1 (it is not a regular file): put it back.";
    QTest::newRow("a dangling link")
        << "config.json" << 3 << "Cannot read %1 (No such file or directory): put it back.";
}

void TestWholeFile::textRefusals()
{
    QFETCH(QString, name);
    QFETCH(int, kind);
    QFETCH(QString, says);
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    if (kind == 1)
        QVERIFY(QDir(dir.path()).mkdir(name));
    if (kind == 2)
        QCOMPARE(::mkfifo(path.toLocal8Bit().constData(), 0600), 0);
    if (kind == 3)
        QVERIFY(QFile::link(dir.filePath("gone.json"), path));
    const QString message =
        errorOf([&] { WholeFile::readText(path.toStdString(), "put it back."); });
    QCOMPARE(message, says.arg(path));
}

HEADLENS_TEST_APPLESS_MAIN(TestWholeFile)
#include "tst_wholefile.moc"
