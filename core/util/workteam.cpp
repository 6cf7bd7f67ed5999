// WorkTeam: a loop's iterations claimed from one counter by the caller and idle helpers.
#include "util/workteam.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include <omp.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HEADLENS_CPU_RELAX() _mm_pause()
#else
#define HEADLENS_CPU_RELAX() std::this_thread::yield()
#endif

namespace headlens {

namespace {

using Clock = std::chrono::steady_clock;

/// How long an idle helper keeps watching for the next loop before it sleeps. computeTrace starts
/// its loops a few microseconds apart; waking a sleeping thread costs tens of microseconds, as
/// long as a whole loop of a small layer. Short enough that helpers of an idle window go to sleep
/// at once.
constexpr auto kHelperSpin = std::chrono::microseconds(200);

/// How long the caller spins for helpers still inside its loop before it yields its core to them.
constexpr auto kCallerSpin = std::chrono::microseconds(50);

/// Spins (with the CPU's pause hint) until done() or `limit` has passed; true if done().
template <typename Done> bool spinUntil(Done done, Clock::duration limit)
{
    const Clock::time_point end = Clock::now() + limit;
    for (;;) {
        for (int i = 0; i < 64; ++i) {
            if (done())
                return true;
            HEADLENS_CPU_RELAX();
        }
        if (Clock::now() >= end)
            return done();
    }
}

/// omp_set_num_threads(1) for this thread while alive: Eigen follows OpenMP's thread count, and
/// must not start threads of its own inside a loop's body.
class OneEigenThread
{
public:
    OneEigenThread() : m_previous(omp_get_max_threads()) { omp_set_num_threads(1); }
    ~OneEigenThread() { omp_set_num_threads(m_previous); }
    OneEigenThread(const OneEigenThread &) = delete;
    OneEigenThread &operator=(const OneEigenThread &) = delete;

private:
    int m_previous;
};

} // namespace

/// One call of run(): the iterations, who is working on them, and the first error.
struct WorkTeam::Job
{
    Job(const std::function<void(int64_t)> &body, int64_t count, int threads)
        : body(body), count(count), chunk(std::max<int64_t>(1, count / (8 * threads))),
          seats(threads - 1)
    {}

    /// Claims and runs chunks of iterations until none is left. The caller's body outlives every
    /// call: run() returns only when no thread is inside work() any more.
    void work()
    {
        for (;;) {
            const int64_t first = next.fetch_add(chunk);
            if (first >= count)
                return;
            try {
                for (int64_t i = first; i < std::min(first + chunk, count); ++i)
                    body(i);
            } catch (...) {
                const std::lock_guard<std::mutex> lock(errorMutex);
                if (!error)
                    error = std::current_exception();
                next.store(count); // the rest would be wasted work
            }
        }
    }

    /// A helper's turn: joins only while seats are left, counted in `inside` while it works.
    void helpOut()
    {
        if (seats.fetch_sub(1) <= 0)
            return;
        ++inside;
        work();
        --inside;
    }

    const std::function<void(int64_t)> &body;
    const int64_t count;
    /// Iterations claimed at once: about eight claims per thread, so that a loop over rows does
    /// not pay a shared counter per row, while a loop over a few heads still balances.
    const int64_t chunk;
    std::atomic<int64_t> next{0};
    std::atomic<int> seats;     ///< helpers that may still join (threads - 1 at the start)
    std::atomic<int> inside{0}; ///< helpers inside work()
    std::mutex errorMutex;
    std::exception_ptr error;
};

struct WorkTeam::State
{
    std::mutex mutex;
    std::condition_variable wake;
    std::shared_ptr<Job> current;        ///< guarded by mutex
    std::atomic<uint64_t> generation{0}; ///< changed (under mutex) whenever current changes
    int sleepers = 0;                    ///< guarded by mutex
    bool stopping = false;               ///< guarded by mutex
    std::atomic<bool> taken{false};      ///< a caller's loop holds the helpers
    std::vector<std::thread> threads;

    void helperLoop()
    {
        const OneEigenThread oneEigenThread;
        // Not generation.load(): a helper that starts after the first loop was published must
        // still see it as new.
        uint64_t seen = 0;
        for (;;) {
            if (!spinUntil([&] { return generation.load(std::memory_order_relaxed) != seen; },
                           kHelperSpin)) {
                std::unique_lock<std::mutex> lock(mutex);
                ++sleepers;
                wake.wait(lock, [&] { return stopping || generation.load() != seen; });
                --sleepers;
            }
            std::shared_ptr<Job> job;
            {
                const std::lock_guard<std::mutex> lock(mutex);
                if (stopping)
                    return;
                job = current;
                seen = generation.load();
            }
            if (job)
                job->helpOut();
        }
    }

    void publish(std::shared_ptr<Job> job)
    {
        bool anyoneAsleep = false;
        {
            const std::lock_guard<std::mutex> lock(mutex);
            current = std::move(job);
            ++generation;
            anyoneAsleep = sleepers > 0;
        }
        if (anyoneAsleep)
            wake.notify_all();
    }

    /// Forgets the finished job without waking anyone: a helper that finds no job goes back to
    /// waiting for the next generation.
    void retire()
    {
        const std::lock_guard<std::mutex> lock(mutex);
        current.reset();
    }
};

WorkTeam &WorkTeam::shared()
{
    static WorkTeam *team =
        new WorkTeam(std::max(0, static_cast<int>(std::thread::hardware_concurrency()) - 1));
    return *team;
}

WorkTeam::WorkTeam(int helpers) : m_state(std::make_unique<State>())
{
    for (int i = 0; i < helpers; ++i)
        m_state->threads.emplace_back([state = m_state.get()] { state->helperLoop(); });
}

WorkTeam::~WorkTeam()
{
    {
        const std::lock_guard<std::mutex> lock(m_state->mutex);
        m_state->stopping = true;
    }
    m_state->wake.notify_all();
    for (std::thread &thread : m_state->threads)
        thread.join();
}

int WorkTeam::helpers() const
{
    return static_cast<int>(m_state->threads.size());
}

void WorkTeam::run(int64_t count, int threads, const std::function<void(int64_t)> &body)
{
    const OneEigenThread oneEigenThread;
    threads = std::min(threads, helpers() + 1);
    State &s = *m_state;
    if (count <= 1 || threads <= 1 || s.taken.exchange(true)) {
        for (int64_t i = 0; i < count; ++i)
            body(i);
        return;
    }
    const auto job = std::make_shared<Job>(body, count, threads);
    s.publish(job);
    job->work();
    // Every iteration is claimed now, so a helper that arrives late finds nothing to do; wait
    // only for those still running one.
    s.retire();
    if (!spinUntil([&] { return job->inside.load() == 0; }, kCallerSpin))
        while (job->inside.load() != 0)
            std::this_thread::yield();
    s.taken.store(false);
    if (job->error)
        std::rethrow_exception(job->error);
}

void parallelFor(int64_t count, const std::function<void(int64_t)> &body)
{
    WorkTeam::shared().run(count, omp_get_max_threads(), body);
}

} // namespace headlens
