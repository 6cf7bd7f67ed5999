// headlens: the window. `headlens [file.headlens] [options] [--screenshot out.png]`.
#include "runner/tracerunner.h"
#include "startupoptions.h"
#include "startupprobe.h"
#include "train/headpatternscores.h"
#include "train/languagemodelview.h"
#include "train/trainview.h"
#include "traincommand.h"
#include "util/inputerror.h"
#include "views/headscorebar.h"
#include "views/headspage.h"
#include "window/filecommands.h"
#include "window/mainwindow.h"
#include "window/screenshottaker.h"
#include "workspace/workspace.h"

#include <QApplication>
#include <QFileInfo>
#include <QTimer>

#include <algorithm>
#include <iostream>
#include <string>

namespace {

/// The command line, or the exit code when it asked only for --help or --version or was wrong.
std::optional<headlens::StartupOptions> parseArguments(int argc, char *argv[], int *exitCode)
{
    using namespace headlens;
    try {
        CommandLineRequest request =
            CommandLine::parse(std::vector<std::string>(argv + 1, argv + argc), true);
        if (request.help || request.version) {
            std::cout << (request.help ? CommandLine::helpText("headlens", true)
                                       : std::string("headlens " HEADLENS_VERSION "\n"));
            *exitCode = 0;
            return std::nullopt;
        }
        return StartupOptions(std::move(request));
    } catch (const InputError &error) {
        std::cerr << "headlens: " << error.what() << "\n";
        *exitCode = 2;
        return std::nullopt;
    }
}

} // namespace

int main(int argc, char *argv[])
{
    // --startup-probe (for headlens-bench): report the first paint and quit.
    const bool probe = argc > 1 && std::string(argv[argc - 1]) == "--startup-probe";
    int exitCode = 0;
    const std::optional<headlens::StartupOptions> options =
        parseArguments(probe ? argc - 1 : argc, argv, &exitCode);
    if (!options)
        return exitCode;

    QApplication app(argc, argv);
    QApplication::setOrganizationName("HeadLens");
    QApplication::setApplicationName("HeadLens");
    QApplication::setApplicationVersion(HEADLENS_VERSION);
    QApplication::setDesktopFileName("headlens");

    headlens::MainWindow window;
    // --handout is a screenshot of a kind: the same offscreen wait for the trace, then a PDF.
    const std::string &handoutPath = options->request().handoutPath;
    const bool screenshot = !options->screenshotPath().isEmpty() || !handoutPath.empty();
    QString workspace = options->workspacePath();
    if (screenshot) {
        const auto &request = options->request();
        window.resize(request.screenshotWidth, request.screenshotHeight);
    } else {
        window.restoreSettings();
        // Nothing asked for: show exactly what was on screen at the last closing.
        if (workspace.isEmpty() && !options->hasSettings())
            window.restoreSession();
    }
    if (const std::optional<bool> dark = options->darkTheme())
        window.setDarkTheme(*dark); // after restoreSettings: the option wins over the saved theme
    if (options->request().presentation)
        window.setPresentation(true);
    if (!workspace.isEmpty())
        window.files()->openWorkspace(workspace);
    try {
        window.workspace()->setState(options->appliedTo(window.workspace()->state()));
    } catch (const headlens::InputError &error) {
        std::cerr << "headlens: " << error.what() << "\n";
        return 2;
    }
    window.recompute();
    if (const std::string &score = options->request().score; !score.empty())
        window.headsPage()->scoreBar()->setPattern(headlens::headPatternFromString(score));
    if (options->request().story) {
        // The story must fit the model's context, which the page knows once the model has run.
        auto once = std::make_shared<QMetaObject::Connection>();
        *once = QObject::connect(
            window.runner(), &headlens::TraceRunner::traceReady, &window, [&window, once] {
                QObject::disconnect(*once);
                QTimer::singleShot(0, &window, [&window] { window.headsPage()->makeStory(); });
            });
    }
    if (const auto &request = options->request(); request.train.languageModel) {
        // --train-lm [--train-text FILE] --steps N: the Language model view trains N steps.
        headlens::LanguageModelView *lm = window.languageModelView();
        lm->presetBox()->setCurrentIndex(
            std::max(0, lm->presetBox()->findData(QString::fromStdString(request.train.preset))));
        lm->stepsBox()->setValue(request.train.steps);
        if (request.train.bpeVocabulary > 0) {
            lm->vocabularyBox()->setValue(request.train.bpeVocabulary);
            lm->tokenizerBox()->setCurrentIndex(lm->tokenizerBox()->findData(1));
        }
        if (request.train.textPath.empty())
            lm->useStories();
        else
            lm->openText(QString::fromStdString(request.train.textPath));
        // --step K: the run of N steps pictured at step K.
        if (request.step > 0)
            lm->trainTo(request.step);
        else
            lm->train();
        window.showLanguageModel();
    } else if (!request.train.task.empty()) {
        try { // --train TASK --steps N: the Train view trains N steps in its worker thread
            if (request.view == "train-live") // a picture mid-run: at the watch speed
                window.trainView()->setStepsPerSecond(
                    headlens::ScreenshotTaker::kLiveStepsPerSecond);
            window.trainView()->train(headlens::TrainCommand::settingsFor(request),
                                      request.train.steps);
            window.showTrain();
        } catch (const headlens::InputError &error) {
            std::cerr << "headlens: " << error.what() << "\n";
            return 2;
        }
    }
    if (screenshot) {
        window.setAttribute(Qt::WA_DontShowOnScreen);
        if (!handoutPath.empty()) {
            const auto &request = options->request();
            auto *taker = new headlens::ScreenshotTaker(
                &window, QString::fromStdString(handoutPath), "handout");
            taker->setHandoutPage(
                {request.page == "letter" ? QPageSize::Letter : QPageSize::A4,
                 request.landscape ? QPageLayout::Landscape : QPageLayout::Portrait});
        } else {
            auto *taker = new headlens::ScreenshotTaker(
                &window, options->screenshotPath(), QString::fromStdString(options->request().view),
                options->request().step);
            const auto &intervene = options->request().intervene;
            taker->setCorpus(QString::fromStdString(intervene.corpusPath));
            const auto &lens = options->request().lens;
            taker->setDataset(QString::fromStdString(intervene.datasetPath),
                              QString::fromStdString(lens.token),
                              QString::fromStdString(lens.wrong), lens.atlas);
            taker->setComparison(intervene.compare);
            taker->setPatching(intervene.patching());
        }
    }
    if (probe)
        new headlens::StartupProbe(&window);
    window.show();
    return QApplication::exec();
}
