// MemorySuite: VmHWM of a fresh process around one computeTrace.
#include "memorysuite.h"

#include "childprocess.h"
#include "processmemory.h"
#include "threadscope.h"

#include "attention/attentionforward.h"

#include <nlohmann/json.hpp>

#include <sys/resource.h>

namespace headlens {

namespace {

/// Peak resident set size of this process so far: /proc/self/status's VmHWM, or getrusage's
/// ru_maxrss (also KiB on Linux) where /proc is missing.
int64_t peakResidentBytes()
{
    if (const std::optional<int64_t> peak = processStatusBytes("VmHWM"))
        return *peak;
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<int64_t>(usage.ru_maxrss) * 1024;
}

} // namespace

std::vector<CoreShape> MemorySuite::shapes(bool quick)
{
    if (quick)
        return {{512, 768, 12}};
    return {{2048, 1024, 16}};
}

std::vector<Measurement> MemorySuite::run(const BenchOptions &options, std::ostream &log)
{
    std::vector<Measurement> rows;
    for (int threads : options.threads) {
        for (const CoreShape &shape : shapes(options.quick)) {
            log << "core_memory " << toString(shape) << " threads=" << threads << std::endl;
            const std::string spec = std::to_string(shape.n) + "," + std::to_string(shape.dModel) +
                                     "," + std::to_string(shape.heads) + "," +
                                     std::to_string(threads);
            const auto child =
                nlohmann::json::parse(ChildProcess::runSelf({"--single-case", spec}));
            const double trace = child.at("trace_bytes").get<double>();
            const double baseline = child.at("baseline_bytes").get<double>();
            const double peak = child.at("peak_bytes").get<double>();
            Measurement m;
            m.suite = name();
            m.parameters = {{"n", shape.n},
                            {"d_model", shape.dModel},
                            {"h", shape.heads},
                            {"threads", threads}};
            m.metrics = {{"trace_bytes", trace},
                         {"estimate_bytes", child.at("estimate_bytes").get<double>()},
                         {"baseline_bytes", baseline},
                         {"peak_bytes", peak},
                         {"growth_over_trace", (peak - baseline) / trace}};
            rows.push_back(m);
        }
    }
    return rows;
}

int MemorySuite::runSingleCase(const SingleCase &single, std::ostream &out)
{
    const ThreadScope scope(single.threads);
    const CoreProblem problem = CoreProblem::make(single.shape);
    const int64_t baseline = peakResidentBytes();
    const Trace trace = computeTrace(problem.config, problem.input, problem.weights);
    const int64_t peak = peakResidentBytes();
    const nlohmann::json line = {
        {"trace_bytes", trace.bytes()},
        {"estimate_bytes", estimateTraceBytes(problem.config, 1, single.shape.n, single.shape.n)},
        {"baseline_bytes", baseline},
        {"peak_bytes", peak}};
    out << line.dump() << std::endl;
    return 0;
}

} // namespace headlens
