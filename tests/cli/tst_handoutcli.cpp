// tst_handoutcli: `headlens --handout` and `headlens-cli --handout` as a person runs them.
#include "pdfpages.h"
#include "sanitizerbuild.h"
#include "testdata.h"
#include "testmain.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using headlens::test::PdfPages;

#ifndef HEADLENS_GUI_PATH // built without the window (HEADLENS_BUILD_GUI=OFF): init() skips
#define HEADLENS_GUI_PATH ""
#endif

namespace {

struct Run
{
    int exitCode = -1;
    QString out, err;
};

/// `program` ("headlens", the window, offscreen; or "headlens-cli", with no display and no
/// platform named at all: it must find its own way to draw).
Run runProgram(const QString &program, const QStringList &arguments)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    const bool window = program == "headlens";
    for (const char *display : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
        environment.remove(display);
    if (window)
        environment.insert("QT_QPA_PLATFORM", "offscreen");
    process.setProcessEnvironment(environment);
    process.start(window ? HEADLENS_GUI_PATH : HEADLENS_CLI_PATH, arguments);
    Run run;
    if (!process.waitForFinished(120000)) {
        process.kill();
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

} // namespace

class TestHandoutCli : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void handoutHasThePaperAsked_data();
    void handoutHasThePaperAsked();
    void badPaperExitsWithTwoAndSaysWhy_data();
    void badPaperExitsWithTwoAndSaysWhy();
    void modelHandoutEndsWithTheAtlas();
    void analysisFigureNeedsItsAnalysis_data();
    void analysisFigureNeedsItsAnalysis();
    void helpNamesThePaperOptions_data();
    void helpNamesThePaperOptions();
};

void TestHandoutCli::init()
{
    if (QString(HEADLENS_GUI_PATH).isEmpty())
        QSKIP("built without the window");
}

void TestHandoutCli::handoutHasThePaperAsked_data()
{
    QTest::addColumn<QString>("program");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QSizeF>("points");
    for (const char *program : {"headlens", "headlens-cli"}) {
        QTest::addRow("%s, default: A4 portrait", program)
            << program << QStringList{} << QSizeF(595.3, 841.9);
        if (test::underSanitizers()) // the same pages on other paper: the release build's
            continue;
        QTest::addRow("%s, letter", program)
            << program << QStringList{"--page", "letter"} << QSizeF(612, 792);
        QTest::addRow("%s, Letter landscape", program)
            << program << QStringList{"--page", "Letter", "--landscape"} << QSizeF(792, 612);
        QTest::addRow("%s, a4 landscape", program)
            << program << QStringList{"--landscape", "--page=a4"} << QSizeF(841.9, 595.3);
    }
}

// The lesson's sentence with 2 heads (the paper is the question here, not the heads): the title
// page and 14 step pages, all on that paper, from the window's program and from the one that
// needs no display alike.
void TestHandoutCli::handoutHasThePaperAsked()
{
    QFETCH(QString, program);
    QFETCH(QStringList, options);
    QFETCH(QSizeF, points);
    QTemporaryDir dir;
    const QString path = dir.filePath("handout.pdf");
    const Run run = runProgram(program, QStringList{"--handout", path, "--text",
                                                    "The tired robot dropped the heavy gear "
                                                    "because it broke",
                                                    "--heads", "2"} +
                                            options);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2((run.err + run.out).contains(path + " (15 pages)"), qPrintable(run.err + run.out));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QSizeF> pages = PdfPages(file.readAll()).pageSizes();
    QCOMPARE(pages.size(), 15);
    for (const QSizeF &page : pages)
        QVERIFY2(std::abs(page.width() - points.width()) < 1.0 &&
                     std::abs(page.height() - points.height()) < 1.0,
                 qPrintable(QString("%1 x %2 pt").arg(page.width()).arg(page.height())));
}

// A model's handout with --atlas: the traced layer's pages, then the atlas of every head.
void TestHandoutCli::modelHandoutEndsWithTheAtlas()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("handout.pdf");
    const Run run =
        runProgram("headlens-cli", {"--model", headlens::test::tinyGpt2(), "--text",
                                    "The cat sat on the mat.", "--atlas", "--handout", path});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QStringList> pages = PdfPages(file.readAll()).pageTexts();
    QVERIFY2((run.err + run.out).contains(QString("(%1 pages)").arg(pages.size())),
             qPrintable(run.out));
    const QString last = pages.back().join(' ');
    QVERIFY2(last.contains("Head atlas of") && last.contains("2 layers") &&
                 last.contains("type's score above chance"),
             qPrintable(last));
    // The page before it is a step's, not another atlas.
    QVERIFY(!pages[pages.size() - 2].join(' ').contains("Head atlas of"));
}

void TestHandoutCli::analysisFigureNeedsItsAnalysis_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QStringList>("computes");
    QTest::addColumn<QString>("named");
    QTest::newRow("atlas") << "atlas" << QStringList{"--atlas"} << "--atlas";
    QTest::newRow("lens") << "lens" << QStringList{"--logit-lens"} << "--logit-lens";
    QTest::newRow("rollout") << "rollout" << QStringList{"--rollout"} << "--rollout";
    QTest::newRow("dla") << "dla" << QStringList{"--dla", " the"} << "--dla TOKEN";
    QTest::newRow("circuits") << "circuits" << QStringList{"--circuits", "1.2"} << "--circuits L.H";
}

// --figure atlas, lens, rollout, dla or circuits without its analysis is refused naming the
// option that computes it; with it, the figure is written at its default size (16 x 12 cm at
// 300 dpi).
void TestHandoutCli::analysisFigureNeedsItsAnalysis()
{
    QFETCH(QString, figure);
    QFETCH(QStringList, computes);
    QFETCH(QString, named);
    QTemporaryDir dir;
    const QStringList asked{"--model",      headlens::test::tinyGpt2(),
                            "--text",       "The cat sat on the mat.",
                            "--export-dir", dir.path(),
                            "--figures",    "png",
                            "--figure",     figure};
    const Run without = runProgram("headlens-cli", asked);
    QCOMPARE(without.exitCode, 2);
    QVERIFY2(without.err.contains("--figure " + figure +
                                  " draws an analysis of a model: add "
                                  "--model DIR and " +
                                  named + "."),
             qPrintable(without.err));
    QVERIFY(!QFile::exists(dir.filePath(figure + ".png")));
    const Run with = runProgram("headlens-cli", asked + computes);
    QVERIFY2(with.exitCode == 0, qPrintable(with.err));
    QCOMPARE(QImage(dir.filePath(figure + ".png")).size(), QSize(1890, 1417));
}

void TestHandoutCli::badPaperExitsWithTwoAndSaysWhy_data()
{
    QTest::addColumn<QString>("program");
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("says");
    for (const char *program : {"headlens", "headlens-cli"}) {
        QTest::addRow("%s, a5", program) << program << QStringList{"--page", "a5"}
                                         << "--page expects a4 or letter (US Letter), got 'a5'.";
        QTest::addRow("%s, no paper", program)
            << program << QStringList{"--page"} << "--page needs a value";
    }
}

void TestHandoutCli::badPaperExitsWithTwoAndSaysWhy()
{
    QFETCH(QString, program);
    QFETCH(QStringList, arguments);
    QFETCH(QString, says);
    QTemporaryDir dir;
    const Run run = runProgram(
        program, QStringList{"--handout", dir.filePath("h.pdf"), "--text", "hi"} + arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(says), qPrintable(run.err));
    QVERIFY(!QFile::exists(dir.filePath("h.pdf")));
}

void TestHandoutCli::helpNamesThePaperOptions_data()
{
    QTest::addColumn<QString>("program");
    QTest::newRow("headlens") << "headlens";
    QTest::newRow("headlens-cli") << "headlens-cli";
}

void TestHandoutCli::helpNamesThePaperOptions()
{
    QFETCH(QString, program);
    const Run run = runProgram(program, {"--help"});
    QCOMPARE(run.exitCode, 0);
    for (const char *option : {"--handout OUT.pdf", "--page a4|letter", "--landscape"})
        QVERIFY2(run.out.contains(option), option);
}

HEADLENS_TEST_GUILESS_MAIN(TestHandoutCli)
#include "tst_handoutcli.moc"
