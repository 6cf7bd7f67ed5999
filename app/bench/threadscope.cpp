// ThreadScope: omp_set_num_threads and Eigen::setNbThreads together.
#include "threadscope.h"

#include <Eigen/Core>
#include <omp.h>

namespace headlens {

ThreadScope::ThreadScope(int threads)
    : m_previousOpenMp(omp_get_max_threads()), m_previousEigen(Eigen::nbThreads()),
      m_previousDynamic(omp_get_dynamic())
{
    // Dynamic adjustment would let the runtime use fewer threads than asked on a busy machine,
    // and the row would then be labelled with the wrong thread count.
    omp_set_dynamic(0);
    omp_set_num_threads(threads);
    // Eigen follows OpenMP's count (0 = omp_get_max_threads()), as in the app, so computeTrace
    // can keep a small layer on one thread; the reference GEMM runs in this thread and follows.
    Eigen::setNbThreads(0);
}

ThreadScope::~ThreadScope()
{
    omp_set_num_threads(m_previousOpenMp);
    Eigen::setNbThreads(m_previousEigen);
    omp_set_dynamic(m_previousDynamic);
}

} // namespace headlens
