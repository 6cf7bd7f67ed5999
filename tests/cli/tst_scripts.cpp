// tst_scripts: every script in scripts/ answers --help, and writes into the repository only when
// --out asks for it.
#include "testmain.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kScripts = QStringLiteral(HEADLENS_TEST_DATA "/../../scripts");

// Debian's interpreter, as the scripts' first lines name it (python3 on PATH may be another).
const QString kPython = QStringLiteral("/usr/bin/python3");

struct ScriptRun
{
    int exitCode = -1;
    QString out, err;
};

/// A copy of scripts/ in a fresh folder, which stands for the repository: a script that writes
/// into "the repository" writes beside the copy, where the test sees it, not into the real one.
class ScriptsCopy
{
public:
    ScriptsCopy()
    {
        QDirIterator files(kScripts, QDir::Files, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            const QString from = files.next();
            if (from.contains("__pycache__"))
                continue;
            const QString to = m_root.filePath("scripts/" + QDir(kScripts).relativeFilePath(from));
            QDir().mkpath(QFileInfo(to).path());
            QFile::copy(from, to);
        }
    }

    ScriptRun run(const QString &interpreter, const QString &script, const QStringList &arguments)
    {
        QProcess process;
        process.setWorkingDirectory(m_root.path());
        process.start(interpreter, QStringList{m_root.filePath("scripts/" + script)} + arguments);
        ScriptRun result;
        if (!process.waitForFinished(60000)) {
            process.kill();
            return result;
        }
        result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

    /// What is in the folder now besides the scripts (and Python's caches of them).
    QStringList written() const
    {
        QStringList found;
        QDirIterator all(m_root.path(), QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot,
                         QDirIterator::Subdirectories);
        while (all.hasNext()) {
            const QString path = QDir(m_root.path()).relativeFilePath(all.next());
            const bool copied = path == "scripts" || QFileInfo::exists(kScripts + path.mid(7));
            if (!copied && !path.contains("__pycache__"))
                found << path;
        }
        return found;
    }

private:
    QTemporaryDir m_root;
};

/// The interpreter that runs `script`; "" when this machine has none.
QString interpreterOf(const QString &script)
{
    if (script.endsWith(".py"))
        return QFileInfo::exists(kPython) ? kPython : QString();
    if (script.endsWith(".mjs"))
        return QStandardPaths::findExecutable("node");
    QFile file(kScripts + "/" + script); // a shell script: the shell its first line names
    const QByteArray first = file.open(QIODevice::ReadOnly) ? file.readLine().trimmed() : "";
    return first.endsWith("bash") ? QStringLiteral("/bin/bash") : QStringLiteral("/bin/sh");
}

} // namespace

class TestScripts : public QObject
{
    Q_OBJECT

private slots:
    void everyScriptIsListed();
    void helpWritesNothing_data();
    void helpWritesNothing();
    void withoutOutWritesNothing_data();
    void withoutOutWritesNothing();
};

// helpWritesNothing_data() names every script, so a new one is checked too (or this fails).
void TestScripts::everyScriptIsListed()
{
    QStringList scripts = QDir(kScripts).entryList({"*.py", "*.mjs", "*.sh"}, QDir::Files);
    scripts.removeAll("script_out.py"); // the helper the Python scripts import
    const QStringList expected{"bench_reference.py",
                               "check_gguf_files.mjs",
                               "check_trained_gpt2.py",
                               "folder_graph.py",
                               "fuzz-smoke.sh",
                               "install-deps.sh",
                               "make_attention_goldens.py",
                               "make_bert_tiny.py",
                               "make_bpe_goldens.mjs",
                               "make_gguf_tiny.py",
                               "make_goldens.py",
                               "make_gpt2_tiny.py",
                               "make_intervention_goldens.py",
                               "make_lens_goldens.py",
                               "make_llama_tiny.py",
                               "make_lm_gradient_goldens.py",
                               "make_npy_samples.py",
                               "make_tokenizer_goldens.mjs",
                               "monkey-x11.sh",
                               "presentation-screenshots.sh",
                               "run.sh"};
    scripts.sort();
    QCOMPARE(scripts, expected);
}

void TestScripts::helpWritesNothing_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<bool>("writesFiles"); // then its --help says where: --out
    QTest::newRow("bench_reference.py") << "bench_reference.py" << false;       // prints a table
    QTest::newRow("check_gguf_files.mjs") << "check_gguf_files.mjs" << false;   // parses
    QTest::newRow("check_trained_gpt2.py") << "check_trained_gpt2.py" << false; // compares
    QTest::newRow("folder_graph.py") << "folder_graph.py" << false;             // prints the graph
    QTest::newRow("fuzz-smoke.sh") << "fuzz-smoke.sh" << true;
    QTest::newRow("install-deps.sh") << "install-deps.sh" << false; // apt and the npm cache
    QTest::newRow("make_attention_goldens.py") << "make_attention_goldens.py" << true;
    QTest::newRow("make_bert_tiny.py") << "make_bert_tiny.py" << true;
    QTest::newRow("make_bpe_goldens.mjs") << "make_bpe_goldens.mjs" << true;
    QTest::newRow("make_gguf_tiny.py") << "make_gguf_tiny.py" << true;
    QTest::newRow("make_goldens.py") << "make_goldens.py" << true;
    QTest::newRow("make_gpt2_tiny.py") << "make_gpt2_tiny.py" << true;
    QTest::newRow("make_intervention_goldens.py") << "make_intervention_goldens.py" << true;
    QTest::newRow("make_lens_goldens.py") << "make_lens_goldens.py" << true;
    QTest::newRow("make_llama_tiny.py") << "make_llama_tiny.py" << true;
    QTest::newRow("make_lm_gradient_goldens.py") << "make_lm_gradient_goldens.py" << true;
    QTest::newRow("make_npy_samples.py") << "make_npy_samples.py" << true;
    QTest::newRow("make_tokenizer_goldens.mjs") << "make_tokenizer_goldens.mjs" << true;
    QTest::newRow("monkey-x11.sh") << "monkey-x11.sh" << false; // into a temporary folder
    QTest::newRow("presentation-screenshots.sh") << "presentation-screenshots.sh" << true;
    QTest::newRow("run.sh") << "run.sh" << true;
}

// --help prints how to use the script (exit 0) and does nothing else: make_llama_tiny.py and
// make_bert_tiny.py ignored it and rewrote tests/data.
void TestScripts::helpWritesNothing()
{
    QFETCH(QString, script);
    QFETCH(bool, writesFiles);
    const QString interpreter = interpreterOf(script);
    if (interpreter.isEmpty())
        QSKIP("no interpreter for it here (/usr/bin/python3, or node on PATH)");
    ScriptsCopy copy;
    const ScriptRun r = copy.run(interpreter, script, {"--help"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains("usage", Qt::CaseInsensitive), qPrintable(r.out + r.err));
    if (writesFiles)
        QVERIFY2(r.out.contains("--out"), qPrintable(r.out));
    QCOMPARE(copy.written(), QStringList());
}

void TestScripts::withoutOutWritesNothing_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<QString>("says"); // what the refusal names
    for (const char *script :
         {"make_attention_goldens.py", "make_bert_tiny.py", "make_goldens.py", "make_gguf_tiny.py",
          "make_intervention_goldens.py", "make_llama_tiny.py", "make_lm_gradient_goldens.py",
          "make_npy_samples.py"})
        QTest::newRow(script) << script << "the following arguments are required: --out";
    QTest::newRow("make_gpt2_tiny.py")
        << "make_gpt2_tiny.py"
        << "give --out DIR (the committed files: --out tests/data/gpt2)";
    QTest::newRow("make_tokenizer_goldens.mjs") << "make_tokenizer_goldens.mjs"
                                                << "give --install or --out DIR";
    QTest::newRow("make_bpe_goldens.mjs") << "make_bpe_goldens.mjs"
                                          << "give --out DIR (the committed goldens: --out "
                                             "tests/data/bpe)";
}

// The scripts that make the committed test data refuse to run without --out, saying so, and
// write nothing: regenerating tests/data is asked for by name (--out tests/data/...).
void TestScripts::withoutOutWritesNothing()
{
    QFETCH(QString, script);
    QFETCH(QString, says);
    const QString interpreter = interpreterOf(script);
    if (interpreter.isEmpty())
        QSKIP("no interpreter for it here (/usr/bin/python3, or node on PATH)");
    ScriptsCopy copy;
    const ScriptRun r = copy.run(interpreter, script, {});
    QVERIFY2(r.exitCode != 0, qPrintable(r.out + r.err));
    QVERIFY2(r.err.contains(says), qPrintable(r.err));
    QCOMPARE(copy.written(), QStringList());
}

HEADLENS_TEST_GUILESS_MAIN(TestScripts)
#include "tst_scripts.moc"
