// FigureExporter: heatmap figures ready for a paper (heads, one head, a model, a step) and views.
#pragma once

#include "attention/trace.h"
#include "export/figurerequest.h"
#include "model/headatlas.h"
#include "model/headcircuits.h"
#include "model/logitattribution.h"
#include "model/logitlens.h"
#include "model/modelrun.h"
#include "plot/plotstyle.h"
#include "print/cellchoice.h"
#include "print/heatmapsheet.h"
#include "runner/traceanalysis.h"
#include "stats/attentionflow.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class QColor;
class QWidget;

namespace headlens {

/// A figure is a print layout of its own (HeatmapSheet, StepPage on a PrintCanvas), drawn with
/// the window's heatmap code but no widgets: axis titles ("query token", "key token"), square
/// cells, the colour bar with its label and range, the heads' titles as the window shows them,
/// at a size in inches and, for PNG, a DPI. PNG, SVG and PDF are painted alike. Needs a
/// QApplication (QT_QPA_PLATFORM=offscreen is enough).
/// The analyses of a model's run a figure can draw; null: not computed.
struct FigureAnalyses
{
    std::shared_ptr<const HeadAtlas> atlas;
    std::shared_ptr<const LogitLens> lens;
    std::shared_ptr<const AttentionFlow> flow;
    std::shared_ptr<const LogitAttribution> attribution;
    std::shared_ptr<const HeadCircuits> circuits;
};

class FigureExporter
{
public:
    explicit FigureExporter(std::shared_ptr<const Trace> trace, int batchIndex = 0,
                            PlotStyle style = {});

    /// W_O for the output projection step.
    void setAnalysis(std::shared_ptr<const TraceAnalysis> analysis);
    /// The run whose layers x heads Content::Model draws.
    void setModel(std::shared_ptr<const ModelRun> model);
    /// The analyses of setModel's run that Content::Atlas, Lens, Rollout, Attribution and
    /// Circuits draw.
    void setAnalyses(FigureAnalyses analyses) { m_analyses = std::move(analyses); }
    /// The cell a step figure works out (otherwise the strongest weight of head 1).
    void setCell(const CellChoice &cell) { m_cell = cell; }

    /// One figure; the format follows the suffix (.png, .pdf, .svg). Throws InputError for
    /// another suffix, a head or step that is not there, a model figure without a model, an
    /// analysis's figure without the analysis.
    void write(const QString &path, const FigureRequest &request) const;
    /// heads.<format> and head_<i>.<format> in `directory` (created), at `request`'s size (its
    /// content is ignored; a size of 0 x 0 is each figure's default) and DPI; the paths written.
    QStringList writeAll(const QString &directory, const QString &format,
                         const FigureRequest &request = {}) const;
    /// What went wrong with `request` for this trace, or empty when it can be drawn.
    QString problemWith(const FigureRequest &request) const;

    /// Any widget as it is on screen to `path`; vector for .pdf and .svg.
    static void writeWidget(QWidget *widget, const QString &path, const QColor &background);

private:
    /// What a sheet figure (any but Step) of `request` draws.
    SheetContent sheetOf(const FigureRequest &request, const PlotStyle &style) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const TraceAnalysis> m_analysis;
    std::shared_ptr<const ModelRun> m_model;
    FigureAnalyses m_analyses;
    std::optional<CellChoice> m_cell;
    int m_batch = 0;
    PlotStyle m_style;
};

} // namespace headlens
