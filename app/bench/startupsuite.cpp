// StartupSuite: posix_spawn of headlens --startup-probe, repeated like every other case.
#include "startupsuite.h"

#include "childprocess.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace headlens {

namespace {

/// build/app/headlens for build/app/bench/headlens-bench.
std::string windowBinary()
{
    char path[4096];
    const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
    if (length <= 0)
        throw std::runtime_error("startup: cannot find headlens-bench's own path");
    std::string self(path, size_t(length));
    self = self.substr(0, self.rfind('/')); // .../app/bench
    const std::string candidate = self.substr(0, self.rfind('/')) + "/headlens";
    if (access(candidate.c_str(), X_OK) != 0)
        throw std::runtime_error("startup: " + candidate + " is not built");
    return candidate;
}

} // namespace

std::vector<Measurement> StartupSuite::run(const BenchOptions &options, std::ostream &log)
{
    const std::string binary = windowBinary();
    char folder[] = "/tmp/headlens-bench-XXXXXX";
    if (!mkdtemp(folder))
        throw std::runtime_error("startup: cannot make a temporary settings folder");
    const std::vector<std::string> environment = {
        "QT_QPA_PLATFORM=offscreen", std::string("XDG_CONFIG_HOME=") + folder,
        std::string("HOME=") + folder, "QT_LOGGING_RULES=*.debug=false"};
    log << "startup " << binary << " --startup-probe" << std::endl;
    std::vector<double> inside;
    // The untimed first run warms the disk cache.
    const Timing timing = BenchClock(options.repetitionPolicy()).collect([&] {
        const auto [ms, line] =
            ChildProcess::timeFirstLine(binary, {"--startup-probe"}, environment);
        inside.push_back(std::atof(line.substr(line.find(' ') + 1).c_str()));
        return ms;
    });
    inside.erase(inside.begin()); // the untimed run's
    std::filesystem::remove_all(folder);
    Measurement m;
    m.suite = name();
    m.parameters = {{"offscreen", 1}};
    m.timing = timing;
    m.metrics = {{"in_process_ms", Timing::fromSamples(inside).medianMs}};
    return {m};
}

} // namespace headlens
