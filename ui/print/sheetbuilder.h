// SheetBuilder: what a printed sheet of heatmaps shows, read from a Trace or a ModelRun.
#pragma once

#include "attention/trace.h"
#include "model/headatlas.h"
#include "model/headcircuits.h"
#include "model/logitattribution.h"
#include "model/logitlens.h"
#include "model/modelrun.h"
#include "print/heatmapsheet.h"
#include "stats/attentionflow.h"

#include <QCoreApplication>

#include <memory>
#include <optional>

namespace headlens {

/// Reads and pools; computes no attention. Colours follow the View menu's colour scale exactly
/// as the window's views do (ColorRange), head titles carry the heads' colours.
class SheetBuilder
{
    Q_DECLARE_TR_FUNCTIONS(SheetBuilder)

public:
    /// At most this many cells per side on paper: finer than a printed token label anyway.
    static constexpr int kPrintCells = 128;

    /// Every head's attention weights of sequence `b`, titled as the heads grid titles them.
    static SheetContent heads(const std::shared_ptr<const Trace> &trace, int b,
                              const PlotStyle &style, int maxCells = kPrintCells);
    /// One head (0-based), titled and scaled as the single-head view shows it.
    static SheetContent head(const std::shared_ptr<const Trace> &trace, int b, int head,
                             const PlotStyle &style, int maxCells = kPrintCells);
    /// A recorded tensor of sequence `b`, one panel per head when it has heads (TensorSlicer).
    static SheetContent tensor(const Trace &trace, int b, TraceKey key, const PlotStyle &style,
                               int maxCells = kPrintCells);
    /// Every layer x head of a model run, as the Model tab's grid.
    static SheetContent model(const ModelRun &run, const PlotStyle &style,
                              int maxCells = kPrintCells);
    /// The head atlas as the Atlas tab draws it by default: layers x heads, each cell its type
    /// ("prev", "ind", "-") coloured by how far that type's score stands above chance.
    static SheetContent atlas(const HeadAtlas &atlas);
    /// The logit lens as the Lens tab draws it: stages x positions (labelled with `tokens`, the
    /// run's), each cell the stage's top token coloured by the probability of the final
    /// prediction (0 to 1).
    static SheetContent logitLens(const LogitLens &lens, const std::vector<std::string> &tokens,
                                  int maxCells = kPrintCells);
    /// The attention rollout through each layer (AttentionFlow::rollout), a panel per layer on
    /// one 0-1 scale, queries and keys labelled with `tokens`, as the Flow tab draws it.
    static SheetContent rollout(const AttentionFlow &flow, const std::vector<std::string> &tokens,
                                int maxCells = kPrintCells);
    /// Each head's direct logit attribution (L x h, LogitAttribution::heads) in the diverging
    /// map on ±its largest |value|, each cell its value, as the Lens tab draws it.
    static SheetContent attribution(const LogitAttribution &attribution);
    /// A head's QK and OV circuits on the first `tokens` of the tokens read (the text's), each
    /// in the diverging map on ±its own largest |value| with its own colour bar, as the
    /// Circuits tab draws them.
    static SheetContent circuits(const HeadCircuits &circuits, int tokens);
    /// The tensor a step's heatmaps show, as the pipeline's gallery starts with it: the first
    /// output the trace holds, else the first input; nothing for a step without one.
    static std::optional<TraceKey> stepTensor(const Trace &trace, const TraceStep &step);
    /// Labels along an axis of sequence `b`: tokens for "n" and "n_kv", indices otherwise.
    static QStringList axisLabels(const Trace &trace, int b, const std::string &axis, int count);
    /// "query token" for n, "key token" for n_kv, the axis' own name otherwise.
    static QString axisTitle(const std::string &axis);
};

} // namespace headlens
