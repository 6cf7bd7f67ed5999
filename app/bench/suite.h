// Suite: one family of benchmark cases; headlens-bench runs every suite it knows in turn.
#pragma once

#include "benchoptions.h"
#include "measurement.h"

#include <ostream>
#include <string>
#include <vector>

namespace headlens {

/// A new benchmark (e.g. GUI latency) is a new Suite subclass registered in main.cpp; the table
/// and the JSON report take whatever Measurements it returns.
class Suite
{
public:
    virtual ~Suite() = default;
    /// The name --suite selects it by; also the "suite" of its measurements unless it reports
    /// helper rows under another name (core_forward also reports gemm_reference).
    virtual std::string name() const = 0;
    /// Whether a run without --suite runs it (one that takes many minutes waits to be asked).
    virtual bool byDefault() const { return true; }
    /// Runs the suite's cases for these options, writing one progress line per case to `log`
    /// (stderr, so that stdout holds only the table).
    virtual std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) = 0;
};

} // namespace headlens
