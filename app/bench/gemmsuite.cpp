// GemmSuite: every product shape on every available backend and threading.
#include "gemmsuite.h"

#include "threadscope.h"

#include "linalg/blaslibrary.h"
#include "linalg/gemmdispatch.h"

namespace headlens {

std::vector<GemmCase> GemmSuite::shapes(bool quick)
{
    auto linear = [](int64_t n, int64_t dIn, int64_t dOut) {
        GemmCase gemm;
        gemm.m = n;
        gemm.n = dOut;
        gemm.k = dIn;
        gemm.op = Operand::Transposed;
        return gemm;
    };
    GemmCase cube;
    cube.m = cube.n = cube.k = quick ? 1024 : 2048;
    if (quick)
        return {cube, linear(128, 768, 3 * 768)};
    return {cube,
            linear(64, 768, 3 * 768),
            linear(128, 768, 3 * 768),
            linear(512, 768, 3 * 768),
            linear(1024, 768, 3 * 768),
            linear(128, 896, 4864),
            linear(512, 896, 4864),
            linear(512, 4864, 896)};
}

std::vector<Measurement> GemmSuite::run(const BenchOptions &options, std::ostream &log)
{
    const BenchClock clock(options.repetitionPolicy());
    log << "gemm: the core's choice is " << toString(GemmDispatch::shared().chosen()) << " ("
        << GemmDispatch::shared().reason() << ")" << std::endl;
    std::vector<Measurement> rows;
    for (int threads : options.threads) {
        const ThreadScope scope(threads);
        for (GemmCase gemm : shapes(options.quick)) {
            for (GemmBackend backend :
                 {GemmBackend::Eigen, GemmBackend::OpenBlas, GemmBackend::Blis}) {
                if (!BlasLibrary::installed(backend))
                    continue;
                gemm.backend = backend;
                // On one thread the split only cuts the product in two: the same work.
                for (bool split : {false, true}) {
                    if (split && threads == 1)
                        continue;
                    gemm.columnSplit = split;
                    log << "gemm " << toString(gemm) << " threads=" << threads << std::endl;
                    rows.push_back(GemmReference::measure(gemm, threads, clock));
                }
            }
        }
    }
    return rows;
}

} // namespace headlens
