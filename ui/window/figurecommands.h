// FigureCommands: File > Export view: the figure dialog, the file name, the figure written.
#pragma once

#include "export/figureexporter.h"
#include "export/figurerequest.h"
#include "plot/plotstyle.h"

#include <QObject>

#include <functional>

class QWidget;

namespace headlens {

class ModelController;
class PipelineView;
class Selection;

/// Reads what to draw from the views it is given (the pipeline's trace, analysis, step and
/// picked cell; the pinned head; the model's run and its analyses) and draws it with
/// FigureExporter. Remembers the
/// size and resolution chosen last. Failures are shown in plain words.
class FigureCommands : public QObject
{
    Q_OBJECT
public:
    FigureCommands(PipelineView *pipeline, Selection *selection, ModelController *models,
                   QWidget *dialogParent);

    void setPlotStyle(const PlotStyle &style) { m_style = style; }
    /// Where the analyses of the model's run on screen come from (the Atlas, Lens, Flow and
    /// Circuits tabs): each one computed is offered as a figure.
    void setAnalyses(std::function<FigureAnalyses()> analyses) { m_analyses = std::move(analyses); }
    /// Offers `shown` (what the current tab shows) first.
    void chooseAndExport(FigureRequest::Content shown);

signals:
    void message(const QString &text);

private:
    QString defaultName(const FigureRequest &request) const;

    PipelineView *m_pipeline;
    Selection *m_selection;
    ModelController *m_models;
    QWidget *m_parent;
    PlotStyle m_style;
    std::function<FigureAnalyses()> m_analyses;
    FigureRequest m_last; ///< its size and dpi come back next time
};

} // namespace headlens
