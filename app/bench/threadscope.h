// ThreadScope: sets the thread count of OpenMP and Eigen for one block, then restores it.
#pragma once

namespace headlens {

/// The core parallelises over heads with OpenMP and Eigen parallelises its large products
/// (the projections) on its own pool setting; both must agree for "1 thread" to mean one.
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
