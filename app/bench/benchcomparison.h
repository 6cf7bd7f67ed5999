// BenchComparison: two headlens-bench JSON reports side by side, case by case (--compare).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace headlens {

/// One case timed in both reports: the same suite and the same parameters.
struct ComparedCase
{
    std::string suite;
    std::string parameters; ///< "n=32 d_model=512 h=8 pinned_head=0", in the report's order
    double oldMedianMs = 0.0;
    double newMedianMs = 0.0;
    std::optional<double> oldStallMs; ///< max_stall_ms, where both reports have it
    std::optional<double> newStallMs;

    /// New median over old: below 1 is faster.
    double ratio() const { return newMedianMs / oldMedianMs; }
};

/// What changed between an older and a newer run of the benchmarks: for every case timed in
/// both, the medians and their ratio (and the longest stall where the suite measures one), so
/// that a regression shows at a glance; cases in one report only are listed by name. The
/// machines are named: a ratio between two machines says as much about them as about the code.
class BenchComparison
{
public:
    /// Reads two reports written by `headlens-bench --json`. Throws InputError naming the file
    /// and what is wrong with it (missing, not JSON, not a headlens-bench report).
    static BenchComparison fromFiles(const std::string &oldPath, const std::string &newPath);
    /// The same from the reports' text; `oldName` and `newName` name them in messages.
    static BenchComparison fromText(const std::string &oldText, const std::string &oldName,
                                    const std::string &newText, const std::string &newName);

    const std::vector<ComparedCase> &cases() const { return m_cases; }
    /// "suite: parameters" of the timed cases only one report has.
    const std::vector<std::string> &onlyInOld() const { return m_onlyInOld; }
    const std::vector<std::string> &onlyInNew() const { return m_onlyInNew; }
    bool sameMachine() const { return m_oldMachine == m_newMachine; }

    /// Faster or slower than this factor is marked (timings of one run spread by ~10%).
    static constexpr double kNoticeable = 1.10;

    /// The two runs (date and machine), then a table per suite: old and new median, ratio,
    /// "faster" or "slower" past kNoticeable, and the stalls where measured.
    void print(std::ostream &out) const;

private:
    std::string m_oldName, m_newName;
    std::string m_oldRun, m_newRun; ///< "2026-12-03T10:00:00Z, <cpu>, 2 logical cores"
    std::string m_oldMachine, m_newMachine;
    std::vector<ComparedCase> m_cases;
    std::vector<std::string> m_onlyInOld;
    std::vector<std::string> m_onlyInNew;
};

} // namespace headlens
