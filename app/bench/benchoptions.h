// BenchOptions: what headlens-bench was asked to do, parsed from its command line.
#pragma once

#include "benchclock.h"
#include "coreproblem.h"

#include <optional>
#include <string>
#include <vector>

namespace headlens {

/// One forward pass in a fresh process, for the peak-memory suite (see MemorySuite).
struct SingleCase
{
    CoreShape shape;
    int threads = 1;
};

struct BenchOptions
{
    bool quick = false;               ///< --quick: fewer shapes, shorter runs (a smoke test)
    bool help = false;                ///< --help
    std::string jsonPath;             ///< --json PATH; empty writes no JSON
    std::vector<std::string> suites;  ///< --suite NAME (repeatable); empty runs every suite
    std::vector<int> threads{1, 2};   ///< --threads 1,2: thread counts the timed suites use
    int busyPrograms = 0;             ///< --busy N: spinning programs beside the benchmarks
    std::optional<SingleCase> single; ///< --single-case N,D_MODEL,H,THREADS (internal)
    std::vector<std::string> compare; ///< --compare OLD.json NEW.json: two reports, no runs

    /// Full runs: ~0.75 s and at least 5 repetitions per case; --quick: ~0.1 s and at least 3.
    RepetitionPolicy repetitionPolicy() const;
    bool wantsSuite(const std::string &name) const;

    /// Throws InputError naming the option and what it expects.
    static BenchOptions parse(const std::vector<std::string> &arguments);
    static std::string helpText();
};

} // namespace headlens
