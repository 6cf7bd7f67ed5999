// BackgroundLoad: forked children in a busy loop, killed with the object.
#include "backgroundload.h"

#include <csignal>
#include <cstring>
#include <stdexcept>
#include <string>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace headlens {

BackgroundLoad::BackgroundLoad(int programs)
{
    for (int i = 0; i < programs; ++i) {
        const pid_t pid = fork();
        if (pid < 0) {
            const std::string reason = std::strerror(errno);
            stop();
            throw std::runtime_error("cannot start a background program for --busy: " + reason);
        }
        if (pid == 0) {
            // The child only spins: nothing that could deadlock on a lock another thread of the
            // parent held at fork. It dies with the parent even if the parent is killed.
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            volatile unsigned long spin = 0;
            for (;;)
                spin = spin + 1;
        }
        m_children.push_back(pid);
    }
}

BackgroundLoad::~BackgroundLoad()
{
    stop();
}

void BackgroundLoad::stop()
{
    for (const pid_t pid : m_children)
        kill(pid, SIGKILL);
    for (const pid_t pid : m_children)
        waitpid(pid, nullptr, 0);
    m_children.clear();
}

} // namespace headlens
