// headlens: the window. `headlens [file.headlens] [options] [--screenshot out.png]`.
#include "mainwindow.h"
#include "startupoptions.h"
#include "util/inputerror.h"
#include "window/filecommands.h"
#include "window/screenshottaker.h"
#include "workspace/workspace.h"

#include <QApplication>
#include <QFileInfo>

#include <iostream>

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
    int exitCode = 0;
    const std::optional<headlens::StartupOptions> options = parseArguments(argc, argv, &exitCode);
    if (!options)
        return exitCode;

    QApplication app(argc, argv);
    QApplication::setOrganizationName("HeadLens");
    QApplication::setApplicationName("HeadLens");
    QApplication::setApplicationVersion(HEADLENS_VERSION);
    QApplication::setDesktopFileName("headlens");

    headlens::MainWindow window;
    const bool screenshot = !options->screenshotPath().isEmpty();
    QString workspace = options->workspacePath();
    if (screenshot) {
        const auto &request = options->request();
        window.resize(request.screenshotWidth, request.screenshotHeight);
    } else {
        const QString last = window.restoreSettings();
        if (workspace.isEmpty() && !options->hasSettings() && QFileInfo::exists(last))
            workspace = last;
    }
    if (!workspace.isEmpty())
        window.files()->openWorkspace(workspace);
    try {
        window.workspace()->setState(options->appliedTo(window.workspace()->state()));
    } catch (const headlens::InputError &error) {
        std::cerr << "headlens: " << error.what() << "\n";
        return 2;
    }
    window.recompute();
    if (screenshot) {
        window.setAttribute(Qt::WA_DontShowOnScreen);
        new headlens::ScreenshotTaker(&window, options->screenshotPath(),
                                      QString::fromStdString(options->request().view),
                                      options->request().step);
    }
    window.show();
    return QApplication::exec();
}
