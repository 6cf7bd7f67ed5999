// FigureWriter: an offscreen QApplication around the window's FigureExporter.
#include "figurewriter.h"

#include "attention/trace.h"
#include "export/figureexporter.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <QApplication>
#include <QDir>

#include <memory>

namespace headlens {

namespace {

/// The QApplication the drawing code needs; offscreen unless the caller chose a platform.
std::unique_ptr<QApplication> ensureApplication()
{
    if (QApplication::instance())
        return nullptr;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "headlens-cli";
    static char *argv[] = {name, nullptr};
    return std::make_unique<QApplication>(argc, argv);
}

} // namespace

int writeFigures(std::shared_ptr<const Trace> trace, const std::string &directory,
                 const std::vector<std::string> &formats)
{
    for (const std::string &format : formats)
        if (format != "png" && format != "pdf" && format != "svg")
            throw InputError("--figures takes png, pdf and svg (comma-separated), not '" +
                             quotedText(format) + "'.");
    const std::unique_ptr<QApplication> application = ensureApplication();
    int written = 0;
    const QDir root(QString::fromStdString(directory));
    for (int64_t b = 0; b < trace->batch(); ++b) {
        const QString folder =
            trace->batch() == 1 ? root.path() : root.filePath(QString("seq_%1").arg(b));
        const FigureExporter exporter(trace, static_cast<int>(b));
        for (const std::string &format : formats)
            written +=
                static_cast<int>(exporter.writeAll(folder, QString::fromStdString(format)).size());
    }
    return written;
}

} // namespace headlens
