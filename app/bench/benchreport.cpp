// BenchReport: fixed-width tables on stdout and the versioned JSON file.
#include "benchreport.h"
#include "util/bytesize.h"

#include "attention/attentionforward.h"
#include "io/atomicfile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>

namespace headlens {

namespace {

using Json = nlohmann::ordered_json;
using Row = std::vector<std::string>;

bool endsWith(const std::string &text, const std::string &suffix)
{
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Four significant digits (0.01234, 12.35, 1235) without switching to exponents.
std::string number(double value)
{
    if (!std::isfinite(value))
        return "-";
    char text[32];
    const double magnitude = std::fabs(value);
    const int decimals = magnitude >= 1000 ? 0 : magnitude >= 100 ? 1 : magnitude >= 10 ? 2 : 3;
    std::snprintf(text, sizeof text, "%.*f", magnitude != 0 && magnitude < 0.01 ? 5 : decimals,
                  value);
    return text;
}

std::string metricText(const std::string &name, double value)
{
    return endsWith(name, "_bytes") && std::isfinite(value)
               ? formatBytes(static_cast<int64_t>(value))
               : number(value);
}

/// Cells of one measurement, in the order of the header printSuiteTable builds.
Row cells(const Measurement &m, bool timed)
{
    Row row;
    for (const auto &[name, value] : m.parameters)
        row.push_back(std::to_string(value));
    if (timed) {
        const Timing &t = *m.timing;
        for (double ms : {t.medianMs, t.meanMs, t.p90Ms, t.minMs, t.maxMs, t.q3Ms - t.q1Ms})
            row.push_back(number(ms));
        row.push_back(std::to_string(t.repetitions()));
    }
    for (const auto &[name, value] : m.metrics)
        row.push_back(metricText(name, value));
    return row;
}

void printRow(std::ostream &out, const Row &row, const std::vector<size_t> &widths)
{
    for (size_t c = 0; c < row.size(); ++c)
        out << (c == 0 ? "" : "  ") << std::setw(static_cast<int>(widths[c])) << row[c];
    out << "\n";
}

} // namespace

BenchReport::BenchReport(MachineInfo machine, RepetitionPolicy policy, bool quick, int busyPrograms)
    : m_machine(std::move(machine)), m_policy(policy), m_quick(quick), m_busyPrograms(busyPrograms),
      m_date(MachineInfo::utcNow())
{}

void BenchReport::add(const std::vector<Measurement> &rows)
{
    m_rows.insert(m_rows.end(), rows.begin(), rows.end());
}

void BenchReport::printTable(std::ostream &out) const
{
    out << m_machine.cpu << ", " << m_machine.logicalCores << " logical cores, "
        << m_machine.compiler << ", " << m_machine.buildType << (m_machine.native ? " native" : "")
        << ", SIMD " << m_machine.simd << "\nproducts: " << m_machine.gemm
        << "; OpenBLAS: " << m_machine.openblas << "; BLIS: " << m_machine.blis
        << "; OPENBLAS_CORETYPE=" << m_machine.openblasCoretype
        << "\nBF16 weights: " << m_machine.bf16Weights;
    if (m_busyPrograms > 0)
        out << "; " << m_busyPrograms << " busy program" << (m_busyPrograms == 1 ? "" : "s")
            << " beside the benchmarks";
    out << "\n";
    std::vector<std::string> suites;
    for (const Measurement &m : m_rows)
        if (std::find(suites.begin(), suites.end(), m.suite) == suites.end())
            suites.push_back(m.suite);
    for (const std::string &suite : suites)
        printSuiteTable(out, suite);
}

void BenchReport::printSuiteTable(std::ostream &out, const std::string &suite) const
{
    std::vector<const Measurement *> rows;
    for (const Measurement &m : m_rows)
        if (m.suite == suite)
            rows.push_back(&m);
    const Measurement &first = *rows.front();
    const bool timed = first.timing.has_value();
    Row header;
    for (const auto &[name, value] : first.parameters)
        header.push_back(name);
    if (timed)
        header.insert(header.end(),
                      {"median ms", "mean ms", "p90 ms", "min ms", "max ms", "IQR ms", "reps"});
    for (const auto &[name, value] : first.metrics)
        header.push_back(name);

    std::vector<Row> table{header};
    for (const Measurement *m : rows)
        table.push_back(cells(*m, timed));
    std::vector<size_t> widths(header.size(), 0);
    for (const Row &row : table)
        for (size_t c = 0; c < row.size() && c < widths.size(); ++c)
            widths[c] = std::max(widths[c], row[c].size());

    out << "\n" << suite << "\n";
    for (const Row &row : table)
        printRow(out, row, widths);
}

std::string BenchReport::toJson() const
{
    Json results = Json::array();
    for (const Measurement &m : m_rows) {
        Json row;
        row["suite"] = m.suite;
        for (const auto &[name, value] : m.parameters)
            row[name] = value;
        if (m.timing) {
            row["median_ms"] = m.timing->medianMs;
            row["min_ms"] = m.timing->minMs;
            row["max_ms"] = m.timing->maxMs;
            row["q1_ms"] = m.timing->q1Ms;
            row["q3_ms"] = m.timing->q3Ms;
            row["repetitions"] = m.timing->repetitions();
            row["p90_ms"] = m.timing->p90Ms;
            row["mean_ms"] = m.timing->meanMs;
        }
        for (const auto &[name, value] : m.metrics)
            row[name] = std::isfinite(value) ? Json(value) : Json(nullptr);
        results.push_back(std::move(row));
    }
    const MachineInfo &mi = m_machine;
    const Json document = {{"format_version", 4},
                           {"tool", "headlens-bench"},
                           {"date", m_date},
                           {"machine",
                            {{"cpu", mi.cpu},
                             {"logical_cores", mi.logicalCores},
                             {"compiler", mi.compiler},
                             {"build_type", mi.buildType},
                             {"flags", mi.flags},
                             {"native", mi.native},
                             {"assertions", mi.assertions},
                             {"simd", mi.simd},
                             {"eigen", mi.eigen},
                             {"openmp", mi.openmp},
                             {"gemm", mi.gemm},
                             {"bf16_weights", mi.bf16Weights},
                             {"openblas", mi.openblas},
                             {"blis", mi.blis},
                             {"openblas_coretype", mi.openblasCoretype}}},
                           {"settings",
                            {{"quick", m_quick},
                             {"target_seconds", m_policy.targetSeconds},
                             {"min_repetitions", m_policy.minRepetitions},
                             {"max_repetitions", m_policy.maxRepetitions},
                             {"busy_programs", m_busyPrograms}}},
                           {"results", results}};
    return document.dump(2) + "\n";
}

void BenchReport::writeJson(const std::string &path) const
{
    AtomicFile::write(path, toJson());
}

} // namespace headlens
