// tst_figureexporter: figures are written without a visible window, in every format.
#include "export/figureexporter.h"
#include "runner/tracejob.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;

class TestFigureExporter : public QObject
{
    Q_OBJECT

private slots:
    void writesNonEmptyFiles_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("png") << "png";
        QTest::newRow("pdf") << "pdf";
        QTest::newRow("svg") << "svg";
    }
    void writesNonEmptyFiles()
    {
        QFETCH(QString, format);
        WorkspaceState state;
        state.config.heads = 4;
        const auto trace = TraceJob::run(*TraceJob::requestFor(state), {});
        QTemporaryDir dir;
        const QStringList files = FigureExporter(trace).writeAll(dir.path(), format);
        QCOMPARE(files.size(), 5); // the grid and 4 heads
        for (const QString &file : files)
            QVERIFY2(QFileInfo(file).size() > 1000, qPrintable(file));
    }
};

QTEST_MAIN(TestFigureExporter)
#include "tst_figureexporter.moc"
