// ThreadScope: omp_set_num_threads and Eigen::setNbThreads together.
#include "threadscope.h"

#include <Eigen/Core>
#include <omp.h>

namespace headlens {

ThreadScope::ThreadScope(int threads)
    : m_previousOpenMp(omp_get_max_threads()), m_previousDynamic(omp_get_dynamic())
{
    // Dynamic adjustment would let the runtime use fewer threads than asked on a busy machine,
    // and the row would then be labelled with the wrong thread count.
    omp_set_dynamic(0);
    omp_set_num_threads(threads);
    // Eigen follows OpenMP's count (0 = omp_get_max_threads()), as in the app; so does the
    // core's parallelFor. The reference GEMM runs in this thread and follows too.
    Eigen::setNbThreads(0);
}

ThreadScope::~ThreadScope()
{
    omp_set_num_threads(m_previousOpenMp);
    // Back to following OpenMP, the app's setting. Eigen::nbThreads() reports the resolved count,
    // not the setting, so "restoring" it fixed Eigen at 2 threads for every later thread: the
    // grid suite's small traces then ran Eigen's products on 2 threads beside the UI thread and
    // took 40-100 ms instead of 2.5 ms.
    Eigen::setNbThreads(0);
    omp_set_dynamic(m_previousDynamic);
}

} // namespace headlens
