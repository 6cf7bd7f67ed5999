// BenchComparison: cases matched on their suite and parameters, the keys before "median_ms".
#include "benchcomparison.h"

#include "io/wholefile.h"
#include "util/inputerror.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <map>

namespace headlens {

namespace {

using Json = nlohmann::ordered_json;

/// A report is a few hundred kB at most; a larger file is not one.
constexpr uint64_t kMaxReportBytes = uint64_t(16) << 20;

struct TimedRow
{
    double medianMs = 0.0;
    std::optional<double> stallMs;
};

/// One report's timed rows by "suite\tparameters", in the report's order.
struct ReadReport
{
    std::string run;
    std::string machine;
    std::vector<std::string> order;
    std::map<std::string, TimedRow> rows;
};

std::string numberText(const Json &value)
{
    if (value.is_number_integer() || value.is_boolean())
        return value.dump();
    if (value.is_number()) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", value.get<double>());
        return text;
    }
    return value.is_string() ? value.get<std::string>() : value.dump();
}

ReadReport readReport(const std::string &text, const std::string &name)
{
    const std::string advice = ": give a file written by headlens-bench --json";
    Json document;
    try {
        document = Json::parse(text);
    } catch (const Json::parse_error &error) {
        throw InputError(name + " is not JSON (" + error.what() + ")" + advice);
    }
    if (!document.is_object() || document.value("tool", Json()) != "headlens-bench" ||
        !document.contains("results") || !document["results"].is_array())
        throw InputError(name + " is not a headlens-bench report" + advice);
    ReadReport report;
    const Json machine = document.value("machine", Json::object());
    report.machine = machine.is_object() ? numberText(machine.value("cpu", Json("?"))) : "?";
    report.run = numberText(document.value("date", Json("?"))) + ", " + report.machine;
    if (machine.is_object() && machine.contains("logical_cores"))
        report.run += ", " + numberText(machine["logical_cores"]) + " logical cores";
    for (const Json &row : document["results"]) {
        if (!row.is_object() || !row.contains("suite") || !row.contains("median_ms") ||
            !row["median_ms"].is_number())
            continue; // untimed rows (memory) and rows whose time could not be measured
        std::string parameters;
        for (auto item = row.begin(); item != row.end() && item.key() != "median_ms"; ++item) {
            if (item.key() == "suite")
                continue;
            parameters +=
                (parameters.empty() ? "" : " ") + item.key() + "=" + numberText(item.value());
        }
        const std::string key = numberText(row["suite"]) + "\t" + parameters;
        TimedRow timed{row["median_ms"].get<double>(), std::nullopt};
        if (row.contains("max_stall_ms") && row["max_stall_ms"].is_number())
            timed.stallMs = row["max_stall_ms"].get<double>();
        if (report.rows.emplace(key, timed).second)
            report.order.push_back(key);
    }
    return report;
}

std::string caseName(const std::string &key)
{
    const size_t tab = key.find('\t');
    return key.substr(0, tab) + ": " + key.substr(tab + 1);
}

std::string msText(double ms)
{
    char text[32];
    std::snprintf(text, sizeof text, ms < 10 ? "%.2f ms" : ms < 100 ? "%.1f ms" : "%.0f ms", ms);
    return text;
}

} // namespace

BenchComparison BenchComparison::fromFiles(const std::string &oldPath, const std::string &newPath)
{
    // In turn: a missing old report is named before the new one.
    const std::string oldText =
        WholeFile::read(oldPath, kMaxReportBytes, "a headlens-bench report");
    const std::string newText =
        WholeFile::read(newPath, kMaxReportBytes, "a headlens-bench report");
    return fromText(oldText, oldPath, newText, newPath);
}

BenchComparison BenchComparison::fromText(const std::string &oldText, const std::string &oldName,
                                          const std::string &newText, const std::string &newName)
{
    const ReadReport before = readReport(oldText, oldName);
    const ReadReport after = readReport(newText, newName);
    BenchComparison comparison;
    comparison.m_oldName = oldName;
    comparison.m_newName = newName;
    comparison.m_oldRun = before.run;
    comparison.m_newRun = after.run;
    comparison.m_oldMachine = before.machine;
    comparison.m_newMachine = after.machine;
    for (const std::string &key : after.order) {
        const auto old = before.rows.find(key);
        if (old == before.rows.end()) {
            comparison.m_onlyInNew.push_back(caseName(key));
            continue;
        }
        const TimedRow &now = after.rows.at(key);
        ComparedCase compared;
        compared.suite = key.substr(0, key.find('\t'));
        compared.parameters = key.substr(key.find('\t') + 1);
        compared.oldMedianMs = old->second.medianMs;
        compared.newMedianMs = now.medianMs;
        if (old->second.stallMs && now.stallMs) {
            compared.oldStallMs = old->second.stallMs;
            compared.newStallMs = now.stallMs;
        }
        comparison.m_cases.push_back(compared);
    }
    for (const std::string &key : before.order)
        if (!after.rows.count(key))
            comparison.m_onlyInOld.push_back(caseName(key));
    return comparison;
}

void BenchComparison::print(std::ostream &out) const
{
    out << "old: " << m_oldName << " (" << m_oldRun << ")\n"
        << "new: " << m_newName << " (" << m_newRun << ")\n";
    if (!sameMachine())
        out << "Different machines: the ratios say as much about the machines as about the "
               "code.\n";
    if (m_cases.empty())
        out << "No case was timed in both reports.\n";
    size_t width = 0;
    for (const ComparedCase &c : m_cases)
        width = std::max(width, c.parameters.size());
    std::string suite;
    for (const ComparedCase &c : m_cases) {
        if (c.suite != suite) {
            suite = c.suite;
            out << "\n" << suite << "\n";
        }
        const double ratio = c.ratio();
        char ratioText[32];
        std::snprintf(ratioText, sizeof ratioText, "%.2fx", ratio);
        const char *mark = !std::isfinite(ratio)       ? ""
                           : ratio > kNoticeable       ? "  slower"
                           : ratio < 1.0 / kNoticeable ? "  faster"
                                                       : "";
        out << "  " << std::left << std::setw(int(width)) << c.parameters << std::right << "  "
            << std::setw(9) << msText(c.oldMedianMs) << " -> " << std::setw(9)
            << msText(c.newMedianMs) << "  " << std::setw(6) << ratioText << mark;
        if (c.oldStallMs && c.newStallMs)
            out << "  (longest stall " << msText(*c.oldStallMs) << " -> " << msText(*c.newStallMs)
                << ")";
        out << "\n";
    }
    if (!m_onlyInOld.empty() || !m_onlyInNew.empty())
        out << "\n";
    for (const std::string &name : m_onlyInOld)
        out << "only in the old report: " << name << "\n";
    for (const std::string &name : m_onlyInNew)
        out << "only in the new report: " << name << "\n";
}

} // namespace headlens
