// PipelineCommands: dialogs around HandoutWriter and the step figure; errors become messages.
#include "pipeline/pipelinecommands.h"

#include "export/figureexporter.h"
#include "pipeline/cellarithmeticpanel.h"
#include "pipeline/pipelineview.h"
#include "print/handoutwriter.h"
#include "util/inputerror.h"

#include <QFileDialog>
#include <QInputDialog>
#include <QLocale>
#include <QMessageBox>
#include <QProgressDialog>

namespace headlens {

PipelineCommands::PipelineCommands(PipelineView *view, QWidget *dialogParent)
    : QObject(view), m_view(view), m_parent(dialogParent)
{}

void PipelineCommands::chooseAndExportStep()
{
    const QString path = QFileDialog::getSaveFileName(
        m_parent, tr("Export this step"), QString("step_%1.png").arg(m_view->step() + 1),
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    try {
        m_view->bringUpToDate();
        FigureExporter exporter(m_view->trace(), m_view->batch(), m_view->plotStyle());
        exporter.setAnalysis(m_view->analysis());
        if (const auto cell = pickedCell())
            exporter.setCell(*cell);
        FigureRequest request;
        request.content = FigureRequest::Content::Step;
        request.index = m_view->step();
        exporter.write(path, request);
        emit message(tr("Wrote %1").arg(path));
    } catch (const InputError &error) {
        QMessageBox::warning(m_parent, tr("Cannot export the step"), error.what());
    }
}

void PipelineCommands::chooseAndWriteHandout()
{
    if (!m_view->trace()) {
        emit message(tr("Type a sentence first: the handout prints its steps."));
        return;
    }
    const std::optional<PageSetup> page = choosePage();
    if (!page)
        return;
    const QString path = QFileDialog::getSaveFileName(
        m_parent, tr("Print the handout"), "attention_handout.pdf", tr("PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    try {
        HandoutWriter writer(m_view->trace(), m_view->analysis(), m_view->batch(),
                             m_view->plotStyle());
        writer.setPage(*page);
        if (const auto cell = pickedCell())
            writer.setCell(*cell);
        // A page at a time with the event loop turning between pages: a handout of 17 pages
        // held the window 1.6 s (tst_monkey, seed 12). The dialog is application modal, so
        // nothing the handout reads can be changed or closed under it.
        const int steps = int(m_view->trace()->steps.size());
        QProgressDialog progress(tr("Writing the handout…"), tr("Cancel"), 0, steps + 1, m_parent);
        progress.setWindowTitle(tr("Print the handout"));
        progress.setWindowModality(Qt::ApplicationModal);
        progress.setMinimumDuration(0); // every handout takes a second or more
        progress.setValue(0);
        writer.setProgress([&progress](int painted, int pages) {
            progress.setLabelText(tr("Writing page %1 of %2…").arg(painted + 1).arg(pages));
            progress.setValue(painted);
            return !progress.wasCanceled();
        });
        const int pages = writer.write(path);
        if (pages == 0)
            emit message(tr("Stopped the handout: %1 was not written.").arg(path));
        else
            emit message(tr("Wrote %1 (%2 pages)").arg(path).arg(pages));
    } catch (const InputError &error) {
        QMessageBox::warning(m_parent, tr("Cannot write the handout"), error.what());
    }
}

// A4 or US Letter (the one the system's measurement system uses first), portrait or landscape.
std::optional<PageSetup> PipelineCommands::choosePage()
{
    const bool letterFirst = QLocale::system().measurementSystem() == QLocale::ImperialUSSystem;
    const QList<PageSetup> pages{{QPageSize::A4, QPageLayout::Portrait},
                                 {QPageSize::A4, QPageLayout::Landscape},
                                 {QPageSize::Letter, QPageLayout::Portrait},
                                 {QPageSize::Letter, QPageLayout::Landscape}};
    const QStringList names{tr("A4, portrait"), tr("A4, landscape"), tr("US Letter, portrait"),
                            tr("US Letter, landscape")};
    bool ok = false;
    const QString name = QInputDialog::getItem(m_parent, tr("Print the handout"), tr("Paper"),
                                               names, letterFirst ? 2 : 0, false, &ok);
    if (!ok)
        return std::nullopt;
    return pages.value(int(names.indexOf(name)));
}

std::optional<CellChoice> PipelineCommands::pickedCell() const
{
    if (!m_view->cellPicked())
        return std::nullopt;
    const CellArithmeticPanel *cell = m_view->cellPanel();
    return CellChoice{cell->head(), cell->query(), cell->key(), true};
}

} // namespace headlens
