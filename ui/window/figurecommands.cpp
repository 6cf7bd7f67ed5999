// FigureCommands: FigureDialog, QFileDialog, FigureExporter; InputError becomes a message box.
#include "window/figurecommands.h"

#include "export/figureexporter.h"
#include "models/modelcontroller.h"
#include "pipeline/cellarithmeticpanel.h"
#include "pipeline/pipelineview.h"
#include "selection/selection.h"
#include "util/inputerror.h"
#include "window/figuredialog.h"

#include <QFileDialog>
#include <QMessageBox>

namespace headlens {

FigureCommands::FigureCommands(PipelineView *pipeline, Selection *selection,
                               ModelController *models, QWidget *dialogParent)
    : QObject(dialogParent), m_pipeline(pipeline), m_selection(selection), m_models(models),
      m_parent(dialogParent)
{}

QString FigureCommands::defaultName(const FigureRequest &request) const
{
    switch (request.content) {
    case FigureRequest::Content::Head:
        return QString("head_%1.png").arg(request.index + 1);
    case FigureRequest::Content::Model:
        return "model.png";
    case FigureRequest::Content::Atlas:
        return "atlas.png";
    case FigureRequest::Content::Lens:
        return "lens.png";
    case FigureRequest::Content::Rollout:
        return "rollout.png";
    case FigureRequest::Content::Attribution:
        return "dla.png";
    case FigureRequest::Content::Circuits:
        return "circuits.png";
    case FigureRequest::Content::Step:
        return QString("step_%1.png").arg(request.index + 1);
    case FigureRequest::Content::Heads:
        break;
    }
    return "heads.png";
}

void FigureCommands::chooseAndExport(FigureRequest::Content shown)
{
    m_pipeline->bringUpToDate();
    const auto trace = m_pipeline->trace();
    if (!trace) {
        emit message(tr("Type a sentence first: there is nothing to draw yet."));
        return;
    }
    FigureRequest initial = m_last;
    initial.content = shown;
    initial.index = shown == FigureRequest::Content::Step ? m_pipeline->step()
                                                          : std::max(m_selection->pinnedHead(), 0);
    if (m_last.inches.isNull() || m_last.content != shown)
        initial.inches = FigureRequest::defaultInches(shown);
    const FigureAnalyses analyses = m_analyses ? m_analyses() : FigureAnalyses{};
    QList<FigureRequest::Content> computed;
    using Content = FigureRequest::Content;
    const std::pair<bool, Content> offered[] = {{bool(analyses.atlas), Content::Atlas},
                                                {bool(analyses.lens), Content::Lens},
                                                {bool(analyses.attribution), Content::Attribution},
                                                {bool(analyses.flow), Content::Rollout},
                                                {bool(analyses.circuits), Content::Circuits}};
    for (const auto &[ready, content] : offered)
        if (ready)
            computed << content;
    FigureDialog dialog(trace->heads(), int(trace->steps.size()), bool(m_models->run()), computed,
                        initial, m_parent);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_last = dialog.request();
    const QString path = QFileDialog::getSaveFileName(
        m_parent, tr("Export figure"), defaultName(m_last),
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    FigureExporter exporter(trace, m_pipeline->batch(), m_style);
    exporter.setAnalysis(m_pipeline->analysis());
    exporter.setModel(m_models->run());
    exporter.setAnalyses(analyses);
    if (m_pipeline->cellPicked()) {
        const CellArithmeticPanel *cell = m_pipeline->cellPanel();
        exporter.setCell({cell->head(), cell->query(), cell->key(), true});
    }
    try {
        exporter.write(path, m_last);
        emit message(tr("Wrote %1").arg(path));
    } catch (const InputError &error) {
        QMessageBox::warning(m_parent, tr("Cannot export the figure"), error.what());
    }
}

} // namespace headlens
