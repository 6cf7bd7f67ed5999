// Tests that the handout PDF has a title page and one page per step, in its bytes.
#include "pipelinecases.h"

#include "pipeline/handoutwriter.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;

class TestHandoutWriter : public QObject
{
    Q_OBJECT

private slots:
    void onePagePerStep_data();
    void onePagePerStep();
    void titlePageNamesTheSettings();
    void stepExportWritesEachFormat_data();
    void stepExportWritesEachFormat();
};

namespace {

// Page objects ("/Type /Page", not "/Type /Pages") in the PDF's bytes.
int countPages(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const QString bytes = QString::fromLatin1(file.readAll());
    return int(bytes.count(QRegularExpression("/Type\\s*/Page(?!s)")));
}

} // namespace

void TestHandoutWriter::onePagePerStep_data()
{
    QTest::addColumn<QString>("caseName");
    QTest::newRow("batch with padding") << QString("batch-padding");
    QTest::newRow("cross-attention") << QString("cross");
}

void TestHandoutWriter::onePagePerStep()
{
    QFETCH(QString, caseName);
    const test::PipelineCase c = test::makePipelineCase(caseName);
    QTemporaryDir dir;
    const QString path = dir.filePath("handout.pdf");
    const int pages = HandoutWriter(c.trace, nullptr, 0, PlotStyle()).write(path, QSize(1000, 700));
    QCOMPARE(pages, int(c.trace->steps.size()) + 1);
    QCOMPARE(countPages(path), pages);
}

void TestHandoutWriter::titlePageNamesTheSettings()
{
    const test::PipelineCase c = test::makePipelineCase("untied");
    const QString lines =
        HandoutWriter(c.trace, nullptr, 0, PlotStyle()).settingsLines().join('\n');
    QVERIFY2(lines.contains("d_model = 24 · h = 3 heads · d_k = 5 · d_v = 7"), qPrintable(lines));
    QVERIFY(lines.contains("The tired robot"));
}

void TestHandoutWriter::stepExportWritesEachFormat_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QByteArray>("magic");
    QTest::newRow("png") << "png" << QByteArray("\x89PNG");
    QTest::newRow("svg") << "svg" << QByteArray("<?xml");
    QTest::newRow("pdf") << "pdf" << QByteArray("%PDF");
}

void TestHandoutWriter::stepExportWritesEachFormat()
{
    QFETCH(QString, suffix);
    QFETCH(QByteArray, magic);
    QWidget widget;
    widget.resize(200, 100);
    QTemporaryDir dir;
    const QString path = dir.filePath("step." + suffix);
    HandoutWriter::writeStep(&widget, path);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.read(magic.size()) == magic);
}

QTEST_MAIN(TestHandoutWriter)
#include "tst_handoutwriter.moc"
