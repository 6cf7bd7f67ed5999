// tst_benchcompare: headlens-bench --compare, the history of the benchmarks read two runs at a
// time.
#include "benchcomparison.h"

#include "testmain.h"
#include "util/inputerror.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <functional>
#include <sstream>

using namespace headlens;

namespace {

/// A report as headlens-bench --json writes it (keys in its order), with the rows given.
std::string report(const std::string &cpu, const std::string &rows)
{
    return R"({"format_version": 4, "tool": "headlens-bench", "date": "2026-12-03T10:00:00Z",
      "machine": {"cpu": ")" +
           cpu + R"(", "logical_cores": 2}, "settings": {"quick": false},
      "results": [)" +
           rows + "]}";
}

/// A grid_latency row: its parameters, then the timings, then its metric.
std::string gridRow(int n, int dModel, int heads, double medianMs, double stallMs)
{
    std::ostringstream row;
    row << R"({"suite": "grid_latency", "n": )" << n << R"(, "d_model": )" << dModel << R"(, "h": )"
        << heads << R"(, "pinned_head": 0, "median_ms": )" << medianMs
        << R"(, "min_ms": 1, "max_ms": 2, "q1_ms": 1, "q3_ms": 2, "repetitions": 5, "p90_ms": 2,)"
        << R"( "mean_ms": 1, "max_stall_ms": )" << stallMs << "}";
    return row.str();
}

const std::string kMemoryRow =
    R"({"suite": "core_memory", "n": 2048, "d_model": 1024, "h": 16, "threads": 1,
        "trace_bytes": 1000, "peak_bytes": 2000})";

std::string message(const std::function<void()> &action)
{
    try {
        action();
    } catch (const InputError &error) {
        return error.what();
    }
    return {};
}

} // namespace

class TestBenchCompare : public QObject
{
    Q_OBJECT

private slots:
    // Cases are matched on their suite and parameters; the ratio is new over old.
    void everyCaseOfBothRunsWithItsRatio()
    {
        const std::string old = report(
            "Xeon", gridRow(32, 512, 8, 20.0, 12.0) + "," + gridRow(512, 768, 12, 90.0, 30.0) +
                        "," + gridRow(2048, 1024, 16, 1200.0, 65.0) + "," + kMemoryRow +
                        R"(, {"suite": "export_png", "n": 512, "median_ms": 40})");
        const std::string now = report(
            "Xeon", gridRow(2048, 1024, 16, 1500.0, 40.0) + "," + gridRow(32, 512, 8, 10.0, 8.0) +
                        "," + gridRow(512, 768, 12, 95.0, 31.0) + "," + kMemoryRow +
                        R"(, {"suite": "startup", "offscreen": 1, "median_ms": 300})");
        const BenchComparison c = BenchComparison::fromText(old, "old.json", now, "new.json");
        QCOMPARE(int(c.cases().size()), 3); // the memory row has no time to compare
        QCOMPARE(c.cases()[0].parameters, std::string("n=2048 d_model=1024 h=16 pinned_head=0"));
        QCOMPARE(c.cases()[0].ratio(), 1.25);
        QCOMPARE(*c.cases()[0].oldStallMs, 65.0);
        QCOMPARE(*c.cases()[0].newStallMs, 40.0);
        QCOMPARE(c.cases()[1].ratio(), 0.5);
        QCOMPARE(c.onlyInOld(), std::vector<std::string>{"export_png: n=512"});
        QCOMPARE(c.onlyInNew(), std::vector<std::string>{"startup: offscreen=1"});
        QVERIFY(c.sameMachine());

        std::ostringstream out;
        c.print(out);
        // Spaces folded: the widths of the columns are the table's business.
        const QString text = QString::fromStdString(out.str()).simplified();
        QVERIFY2(text.contains("n=2048 d_model=1024 h=16 pinned_head=0 1200 ms -> 1500 ms 1.25x "
                               "slower (longest stall 65.0 ms -> 40.0 ms)"),
                 qPrintable(text));
        QVERIFY2(text.contains("20.0 ms -> 10.0 ms 0.50x faster"), qPrintable(text));
        // 95 over 90 is within the spread of one run: no mark.
        QVERIFY2(text.contains(QString("90.0 ms -> 95.0 ms 1.06x (longest")), qPrintable(text));
        QVERIFY(text.contains("only in the old report: export_png: n=512"));
        QVERIFY(text.contains("only in the new report: startup: offscreen=1"));
        QVERIFY(!text.contains("Different machines"));
    }

    void twoMachinesAreSaidToBeTwo()
    {
        const BenchComparison c =
            BenchComparison::fromText(report("Xeon", gridRow(32, 512, 8, 20, 1)), "a.json",
                                      report("EPYC", gridRow(32, 512, 8, 10, 1)), "b.json");
        QVERIFY(!c.sameMachine());
        std::ostringstream out;
        c.print(out);
        QVERIFY(QString::fromStdString(out.str()).contains("Different machines"));
        QVERIFY(QString::fromStdString(out.str()).contains("old: a.json (2026-12-03T10:00:00Z, "
                                                           "Xeon, 2 logical cores)"));
    }

    // What is wrong and what to give instead, naming the file.
    void badReportsAreRefusedWithTheirName()
    {
        const std::string good = report("Xeon", gridRow(32, 512, 8, 20, 1));
        QString text = QString::fromStdString(
            message([&] { BenchComparison::fromText("{\"tool\": ", "cut.json", good, "b"); }));
        QVERIFY2(text.startsWith("cut.json is not JSON") &&
                     text.endsWith("give a file written by headlens-bench --json"),
                 qPrintable(text));
        text = QString::fromStdString(message([&] {
            BenchComparison::fromText(good, "a", R"({"tool": "pytest", "results": []})",
                                      "other.json");
        }));
        QVERIFY2(text.startsWith("other.json is not a headlens-bench report"), qPrintable(text));
        QTemporaryDir dir;
        const std::string missing = dir.filePath("missing.json").toStdString();
        text =
            QString::fromStdString(message([&] { BenchComparison::fromFiles(missing, missing); }));
        QVERIFY2(text.startsWith(QString::fromStdString("Cannot open " + missing)),
                 qPrintable(text));
    }

    void reportsAreReadFromFiles()
    {
        QTemporaryDir dir;
        const std::string a = dir.filePath("a.json").toStdString();
        const std::string b = dir.filePath("b.json").toStdString();
        std::ofstream(a) << report("Xeon", gridRow(32, 512, 8, 20, 1));
        std::ofstream(b) << report("Xeon", gridRow(32, 512, 8, 30, 1));
        const BenchComparison c = BenchComparison::fromFiles(a, b);
        QCOMPARE(int(c.cases().size()), 1);
        QCOMPARE(c.cases()[0].ratio(), 1.5);
    }
};

HEADLENS_TEST_APPLESS_MAIN(TestBenchCompare)
#include "tst_benchcompare.moc"
