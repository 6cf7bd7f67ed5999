// headlens-bench: benchmarks of the attention core and the window, as a table and as JSON.
#include "backgroundload.h"
#include "benchcomparison.h"
#include "benchoptions.h"
#include "benchreport.h"
#include "coresuite.h"
#include "datasetimportancesuite.h"
#include "gemmsuite.h"
#include "importancesuite.h"
#include "lenssuite.h"
#include "longcontextsuite.h"
#include "memorysuite.h"
#include "modelsuite.h"
#include "trainstepsuite.h"
#include "typingsuite.h"

#include "util/inputerror.h"
#include "util/quotedtext.h"

#ifdef HEADLENS_BENCH_GUI
#include "exportsuite.h"
#include "gridlatencysuite.h"
#include "longtextwindowsuite.h"
#include "modelwindowsuite.h"
#include "startupsuite.h"

#include <QApplication>
#endif

#include <iostream>
#include <memory>

namespace {

using namespace headlens;

/// Every suite, in the order they run. A new suite is one more line here.
std::vector<std::unique_ptr<Suite>> allSuites()
{
    std::vector<std::unique_ptr<Suite>> suites;
    suites.push_back(std::make_unique<GemmSuite>());
    suites.push_back(std::make_unique<CoreSuite>());
    suites.push_back(std::make_unique<MemorySuite>());
    suites.push_back(std::make_unique<ModelSuite>());
    suites.push_back(std::make_unique<ImportanceSuite>());
    suites.push_back(std::make_unique<DatasetImportanceSuite>());
    suites.push_back(std::make_unique<LensSuite>());
    suites.push_back(std::make_unique<TypingSuite>());
    suites.push_back(std::make_unique<TrainStepSuite>());
    suites.push_back(std::make_unique<LongContextSuite>());
#ifdef HEADLENS_BENCH_GUI
    suites.push_back(std::make_unique<GridLatencySuite>(false));
    suites.push_back(std::make_unique<GridLatencySuite>(true));
    suites.push_back(std::make_unique<ModelWindowSuite>());
    suites.push_back(std::make_unique<LongTextWindowSuite>());
    suites.push_back(std::make_unique<StartupSuite>());
    suites.push_back(std::make_unique<ExportSuite>());
#endif
    return suites;
}

int runSuites(const BenchOptions &options)
{
    const std::vector<std::unique_ptr<Suite>> suites = allSuites();
    for (const std::string &name : options.suites) {
        bool known = false;
        for (const auto &suite : suites)
            known = known || suite->name() == name;
        if (!known)
            throw InputError("there is no suite '" + quotedText(name) + "'; see --help");
    }
    BenchReport report(MachineInfo::probe(), options.repetitionPolicy(), options.quick,
                       options.busyPrograms);
    for (const auto &suite : suites)
        if (options.suites.empty() ? suite->byDefault() : options.wantsSuite(suite->name()))
            report.add(suite->run(options, std::cerr));
    report.printTable(std::cout);
    if (!options.jsonPath.empty()) {
        report.writeJson(options.jsonPath);
        std::cerr << "wrote " << options.jsonPath << "\n";
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    try {
        const BenchOptions options =
            BenchOptions::parse(std::vector<std::string>(argv + 1, argv + argc));
        if (options.help) {
            std::cout << BenchOptions::helpText();
            return 0;
        }
        if (!options.compare.empty()) {
            BenchComparison::fromFiles(options.compare[0], options.compare[1]).print(std::cout);
            return 0;
        }
        if (options.single)
            return MemorySuite::runSingleCase(*options.single, std::cout);
        // Forked before any thread exists, and stopped when main returns.
        const BackgroundLoad load(options.busyPrograms);
#ifdef HEADLENS_BENCH_GUI
        // The window's suites draw offscreen: no display needed, and none is used if present.
        qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
#endif
        return runSuites(options);
    } catch (const InputError &error) {
        std::cerr << "headlens-bench: " << error.what() << "\n";
        return 2;
    } catch (const std::exception &error) {
        std::cerr << "headlens-bench: " << error.what() << "\n";
        return 1;
    }
}
