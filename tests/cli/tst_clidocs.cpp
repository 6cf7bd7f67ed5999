// tst_clidocs: docs/cli.md names every option `headlens-cli --help` prints, and no other.
#include "clirun.h"
#include "testmain.h"

#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using headlens::test::CliResult;
using headlens::test::runCli;

namespace {

const QString kCliDoc = QStringLiteral(HEADLENS_TEST_DATA "/../../docs/cli.md");

/// Every "--option" written in `text` (a word of letters and dashes after two dashes).
QSet<QString> optionsIn(const QString &text)
{
    QSet<QString> options;
    static const QRegularExpression option(QStringLiteral("(?<![\\w-])--[a-z][a-z0-9-]*"));
    for (auto it = option.globalMatch(text); it.hasNext();)
        options.insert(it.next().captured());
    return options;
}

QString sorted(const QSet<QString> &set)
{
    QStringList list(set.begin(), set.end());
    list.sort();
    return list.join(' ');
}

} // namespace

class TestCliDocs : public QObject
{
    Q_OBJECT

private slots:
    // The reference was split out of the README: an option added to the CLI but not to the
    // page, or one renamed or removed with the page left behind, fails here.
    void theReferenceNamesEveryOptionOfHelp()
    {
        const CliResult help = runCli({"--help"});
        QCOMPARE(help.exitCode, 0);
        const QSet<QString> printed = optionsIn(help.out + help.err);
        QVERIFY2(printed.size() > 40, qPrintable(sorted(printed))); // the parse found them
        QFile doc(kCliDoc);
        QVERIFY2(doc.open(QIODevice::ReadOnly), qPrintable(kCliDoc));
        const QSet<QString> documented = optionsIn(QString::fromUtf8(doc.readAll()));
        QVERIFY2((printed - documented).isEmpty(),
                 qPrintable("not in docs/cli.md: " + sorted(printed - documented)));
        QVERIFY2((documented - printed).isEmpty(),
                 qPrintable("in docs/cli.md, not in --help: " + sorted(documented - printed)));
    }
};

HEADLENS_TEST_GUILESS_MAIN(TestCliDocs)
#include "tst_clidocs.moc"
