// ExportSuite: FigureExporter::writeWidget on an offscreen heads grid, timed per format.
#include "exportsuite.h"

#include "gridharness.h"

#include "export/figureexporter.h"
#include "views/headsgridview.h"

#include <QColor>
#include <QFileInfo>
#include <QTemporaryDir>

#include <stdexcept>

namespace headlens {

std::vector<Measurement> ExportSuite::run(const BenchOptions &options, std::ostream &log)
{
    const int n = options.quick ? 32 : 512, dModel = options.quick ? 512 : 768,
              heads = options.quick ? 8 : 12;
    GridHarness harness;
    const Interaction shown = harness.change(GridHarness::stateFor(n, dModel, heads, 0));
    QTemporaryDir folder;
    if (!folder.isValid())
        throw std::runtime_error("export: cannot make a temporary folder");
    const BenchClock clock(options.repetitionPolicy());
    std::vector<Measurement> rows;
    for (const char *format : {"png", "pdf"}) {
        log << "export_" << format << " n=" << shown.n << " h=" << heads << std::endl;
        const QString path = folder.filePath(QString("heads.") + format);
        const Timing timing = clock.measure(
            [&] { FigureExporter::writeWidget(harness.grid(), path, QColor(Qt::white)); });
        Measurement m;
        m.suite = std::string("export_") + format;
        m.parameters = {{"n", shown.n}, {"d_model", dModel}, {"h", heads}};
        m.timing = timing;
        m.metrics = {{"file_bytes", double(QFileInfo(path).size())}};
        rows.push_back(m);
    }
    return rows;
}

} // namespace headlens
