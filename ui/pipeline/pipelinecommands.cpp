// PipelineCommands: file dialogs around HandoutWriter; errors become messages, not crashes.
#include "pipeline/pipelinecommands.h"

#include "pipeline/handoutwriter.h"
#include "pipeline/pipelineview.h"
#include "util/inputerror.h"

#include <QFileDialog>
#include <QMessageBox>

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
        HandoutWriter::writeStep(m_view, path);
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
    const QString path = QFileDialog::getSaveFileName(
        m_parent, tr("Print the handout"), "attention_handout.pdf", tr("PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    try {
        const HandoutWriter writer(m_view->trace(), m_view->analysis(), m_view->batch(),
                                   m_view->plotStyle());
        const int pages = writer.write(path);
        emit message(tr("Wrote %1 (%2 pages)").arg(path).arg(pages));
    } catch (const InputError &error) {
        QMessageBox::warning(m_parent, tr("Cannot write the handout"), error.what());
    }
}

} // namespace headlens
