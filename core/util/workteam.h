// WorkTeam and parallelFor: loops shared between the calling thread and idle helper threads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

namespace headlens {

/// Runs the iterations of a loop on the calling thread and on whichever helper threads are free
/// to join, and returns when every iteration has run.
///
/// Why not an OpenMP parallel loop: its end is a barrier that waits for every thread of the team,
/// including one the operating system has not yet given a core. On a busy machine (two other
/// programs on two cores) a 0.2 ms trace then took 8.7 ms on average and over 16 ms one time in
/// nine. Here the caller claims iterations from the same counter as the helpers, so if no helper
/// wakes in time it simply does them all itself; it waits only for iterations a helper has
/// already started. On an idle machine the helpers are spinning and join within microseconds,
/// which lets even a 0.2 ms layer use both cores.
///
/// One loop at a time uses the helpers: a loop started while another caller's loop holds them
/// (or from inside a loop's body) runs on its own calling thread. Eigen runs single-threaded
/// inside a loop's body, on the caller as on the helpers.
class WorkTeam
{
public:
    /// The process's team, with one helper per hardware thread beyond the first. Started on
    /// first use and never destroyed (its helpers may still be waiting when the program exits).
    static WorkTeam &shared();

    /// A team with `helpers` helper threads (0: the caller runs everything), for tests.
    explicit WorkTeam(int helpers);
    ~WorkTeam();
    WorkTeam(const WorkTeam &) = delete;
    WorkTeam &operator=(const WorkTeam &) = delete;

    int helpers() const;

    /// Calls body(i) once for every i in [0, count), on the caller and on at most threads - 1
    /// helpers at a time. If a body throws, iterations not yet started are skipped and the first
    /// exception is rethrown here once the started ones have finished.
    void run(int64_t count, int threads, const std::function<void(int64_t)> &body);

private:
    struct Job; ///< one call of run()
    struct State;
    std::unique_ptr<State> m_state;
};

/// WorkTeam::shared().run(count, omp_get_max_threads(), body): the thread count follows OpenMP's
/// setting (OMP_NUM_THREADS, omp_set_num_threads), as the rest of the core does.
void parallelFor(int64_t count, const std::function<void(int64_t)> &body);

} // namespace headlens
