// ThreadScope: sets the thread count of OpenMP and Eigen for one block, then restores it.
#pragma once

namespace headlens {

/// The core's parallelFor (heads, projections' column blocks, rows) takes its thread count from
/// OpenMP's setting, and Eigen, outside those loops, threads its large products (the reference
/// GEMM) by its own setting; both must agree for "1 thread" to mean one.
class ThreadScope
{
public:
    explicit ThreadScope(int threads);
    ~ThreadScope();
    ThreadScope(const ThreadScope &) = delete;
    ThreadScope &operator=(const ThreadScope &) = delete;

private:
    int m_previousOpenMp;
    int m_previousDynamic;
};

} // namespace headlens
