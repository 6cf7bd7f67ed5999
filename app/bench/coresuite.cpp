// CoreSuite: the forward pass from random raw input, per shape and thread count.
#include "coresuite.h"

#include "gemmreference.h"
#include "threadscope.h"

#include "attention/attentionforward.h"
#include "linalg/gemmdispatch.h"

namespace headlens {

std::vector<CoreShape> CoreSuite::shapes(bool quick)
{
    if (quick)
        return {{16, 512, 8}, {128, 768, 12}, {512, 768, 12}};
    return {{16, 512, 8},   {64, 512, 8},    {128, 768, 12},
            {512, 768, 12}, {1024, 768, 12}, {2048, 1024, 16}};
}

std::vector<Measurement> CoreSuite::run(const BenchOptions &options, std::ostream &log)
{
    const BenchClock clock(options.repetitionPolicy());
    std::vector<Measurement> rows;
    for (int threads : options.threads) {
        const ThreadScope scope(threads);
        log << "gemm_reference size=" << gemmSize(options.quick) << " threads=" << threads
            << std::endl;
        // The backend the core's products use (GemmDispatch), with its own threads: the fastest
        // product this machine offers the core.
        const Measurement gemm = GemmReference::measure(
            gemmSize(options.quick), GemmDispatch::shared().chosen(), threads, clock);
        rows.push_back(gemm);
        const double gemmGflops = gemm.metrics.front().second;
        for (const CoreShape &shape : shapes(options.quick)) {
            log << "core_forward " << toString(shape) << " threads=" << threads << std::endl;
            rows.push_back(measureShape(shape, threads, gemmGflops, clock));
        }
    }
    return rows;
}

Measurement CoreSuite::measureShape(const CoreShape &shape, int threads, double gemmGflops,
                                    const BenchClock &clock) const
{
    const CoreProblem problem = CoreProblem::make(shape);
    double flops = 0.0;
    // Each repetition builds and frees a whole trace, as the app does for every new setting: the
    // intermediates' allocation is part of the cost measured. From the second repetition on they
    // reuse the previous trace's blocks (StoragePool), as while a slider is dragged, unless they
    // exceed the pool's capacity (n=2048).
    const Timing timing = clock.measure([&] {
        const Trace trace = computeTrace(problem.config, problem.input, problem.weights);
        flops = trace.totalFlops();
    });

    const double gflops = flops / (timing.medianMs * 1e-3) * 1e-9;
    Measurement m;
    m.suite = name();
    m.parameters = {
        {"n", shape.n}, {"d_model", shape.dModel}, {"h", shape.heads}, {"threads", threads}};
    m.metrics = {{"gflops", gflops}, {"gemm_fraction", gflops / gemmGflops}};
    m.timing = timing;
    return m;
}

} // namespace headlens
