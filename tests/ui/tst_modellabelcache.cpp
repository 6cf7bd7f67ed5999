// Tests of ModelLabelCache: a folder's config.json is read once, and again only when it changes.
#include "models/modellabelcache.h"
#include "testmain.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;

namespace {

void writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(content), qint64(content.size()));
}

void setModified(const QString &path, const QDateTime &time)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadWrite));
    QVERIFY(file.setFileTime(time, QFileDevice::FileModificationTime));
}

QDateTime modified(const QString &path)
{
    return QFileInfo(path).lastModified();
}

} // namespace

class tst_ModelLabelCache : public QObject
{
    Q_OBJECT

    int m_reads = 0;

    /// Counts its calls and answers with the folder's config.json as it is on disk.
    ModelLabelCache::Reader countingReader()
    {
        return [this](const std::string &path) {
            ++m_reads;
            QFile file(QDir(QString::fromStdString(path)).filePath("config.json"));
            return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString()
                                                  : std::string("no config");
        };
    }

private slots:
    void init() { m_reads = 0; }

    // Every edit of the text asks the Model box for the model's name: one read per folder.
    void aFolderIsReadOnce()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("config.json"), "first");
        ModelLabelCache cache(countingReader());
        for (int edit = 0; edit < 5; ++edit)
            QCOMPARE(cache.label(dir.path()), QString("first"));
        QCOMPARE(m_reads, 1);
    }

    // The time, not the contents, says whether to read again: new contents under the old time
    // keep the old label; a newer time brings the new one.
    void aChangedConfigIsReadWhenItsTimeChanges()
    {
        QTemporaryDir dir;
        const QString config = dir.filePath("config.json");
        writeFile(config, "first");
        const QDateTime before = modified(config);
        ModelLabelCache cache(countingReader());
        QCOMPARE(cache.label(dir.path()), QString("first"));
        writeFile(config, "second");
        setModified(config, before);
        QCOMPARE(cache.label(dir.path()), QString("first"));
        QCOMPARE(m_reads, 1);
        setModified(config, before.addSecs(10));
        QCOMPARE(cache.label(dir.path()), QString("second"));
        QCOMPARE(cache.label(dir.path()), QString("second"));
        QCOMPARE(m_reads, 2);
    }

    void anotherFolderIsRead()
    {
        QTemporaryDir a, b;
        writeFile(a.filePath("config.json"), "model a");
        writeFile(b.filePath("config.json"), "model b");
        ModelLabelCache cache(countingReader());
        QCOMPARE(cache.label(a.path()), QString("model a"));
        QCOMPARE(cache.label(b.path()), QString("model b"));
        QCOMPARE(m_reads, 2);
    }

    // A folder chosen before its files were copied in: the config that appears is read.
    void aConfigThatAppearsIsRead()
    {
        QTemporaryDir dir;
        ModelLabelCache cache(countingReader());
        QCOMPARE(cache.label(dir.path()), QString("no config"));
        QCOMPARE(cache.label(dir.path()), QString("no config"));
        writeFile(dir.filePath("config.json"), "copied");
        QCOMPARE(cache.label(dir.path()), QString("copied"));
        QCOMPARE(m_reads, 2);
    }

    // The default reader is ModelOpener's: the family's name and the folder's; a config that
    // cannot be read any more names the folder only (opening it says what is wrong).
    void theDefaultReaderNamesTheFamily()
    {
        QTemporaryDir root;
        const QString dir = root.filePath("mymodel");
        QVERIFY(QDir().mkpath(dir));
        const QString config = dir + "/config.json";
        QVERIFY(QFile::copy(QString(HEADLENS_TEST_DATA) + "/gpt2/tiny/config.json", config));
        ModelLabelCache cache;
        QCOMPARE(cache.label(dir), QString("GPT-2: mymodel"));
        const QDateTime before = modified(config);
        writeFile(config, "{ not json");
        setModified(config, before.addSecs(10));
        QCOMPARE(cache.label(dir), QString("Model folder: mymodel"));
    }
};

HEADLENS_TEST_GUILESS_MAIN(tst_ModelLabelCache)
#include "tst_modellabelcache.moc"
