// PipelineCommands: the pipeline's file commands (export the step, print the handout) with dialogs.
#pragma once

#include "print/cellchoice.h"
#include "print/handoutwriter.h"

#include <QObject>

#include <optional>

class QWidget;

namespace headlens {

class PipelineView;

/// Asks for a file name, writes, and reports through message() (the status bar).
class PipelineCommands : public QObject
{
    Q_OBJECT
public:
    PipelineCommands(PipelineView *view, QWidget *dialogParent);

    void chooseAndExportStep();
    void chooseAndWriteHandout();

signals:
    void message(const QString &text);

private:
    /// The paper, asked for; nothing when the person cancels.
    std::optional<PageSetup> choosePage();
    /// The cell the person picked in the pipeline or the heads grid, if any.
    std::optional<CellChoice> pickedCell() const;

    PipelineView *m_view;
    QWidget *m_parent;
};

} // namespace headlens
