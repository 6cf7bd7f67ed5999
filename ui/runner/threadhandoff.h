// ThreadHandoff: shows ThreadSanitizer the order in which Qt hands work between threads.
#pragma once

#if defined(__SANITIZE_THREAD__)
#include <mutex>
#endif

namespace headlens::ThreadHandoff {

/// Qt hands a queued call, a pooled job or a future's result to another thread under locks of
/// its own. Everything the handing thread wrote before is then visible to the receiving one,
/// but in a Qt built without ThreadSanitizer those locks are invisible to it, and the `tsan`
/// build reported every hand-off as a race, from the captures of the queued lambda on. In that
/// build a Sending scope around the hand-off and arrived() first thing where it arrives share a
/// mutex ThreadSanitizer sees: the arrival locks it after the sender's unlock, so everything the
/// sender wrote up to the end of the scope (the call's captures too) happens before what the
/// receiver reads after arrived(). In every other build both are empty.
class Sending
{
public:
    Sending() { lock(); }
    ~Sending() { unlock(); }
    Sending(const Sending &) = delete;
    Sending &operator=(const Sending &) = delete;

private:
#if defined(__SANITIZE_THREAD__)
    static std::mutex &mutex()
    {
        static std::mutex handoffs;
        return handoffs;
    }
    void lock()
    {
        mutex().lock();
    }
    void unlock()
    {
        mutex().unlock();
    }
    friend void arrived();
#else
    void lock() {}
    void unlock() {}
#endif
};

/// First thing where a hand-off arrives, before reading anything it brought.
inline void arrived()
{
#if defined(__SANITIZE_THREAD__)
    const std::lock_guard<std::mutex> lock(Sending::mutex());
#endif
}

} // namespace headlens::ThreadHandoff
