// SheetBuilder: panels, labels and colour ranges for HeatmapSheet.
#include "print/sheetbuilder.h"

#include "plot/colorrange.h"
#include "plot/headcolors.h"
#include "plot/layerheadlabels.h"
#include "plot/lenslabels.h"
#include "plot/maxpool.h"
#include "text/tokenizer.h"
#include "views/headimagemaker.h"
#include "views/tensorslicer.h"
#include "views/tracereader.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace headlens {

namespace {

/// -largest..largest, with a range left when every value is 0.
ColorRange symmetric(const RowMatrix &values)
{
    const double largest = std::max(double(values.cwiseAbs().maxCoeff()), 1e-6);
    return {-largest, largest};
}

SheetContent weightsSheet(const HeadImages &images, const Trace &trace, int b,
                          const PlotStyle &style)
{
    SheetContent sheet;
    for (const HeadImage &image : images.heads)
        sheet.panels.push_back(
            {image.pooled,
             images.rows,
             images.cols,
             images.maxCells,
             TraceReader::headTitle(trace, b, image.head),
             HeadColors::color(image.head, style.dark),
             ColorRange::of(style.colorScale, images.largestWeight(), image.range),
             {}});
    sheet.rowLabels = TraceReader::queryLabels(trace, b);
    sheet.colLabels = TraceReader::keyLabels(trace, b);
    sheet.rowTitle = SheetBuilder::tr("query token");
    sheet.colTitle = SheetBuilder::tr("key token");
    sheet.legendTitle = ColorRange::legendTitle(style.colorScale);
    sheet.legendRange = ColorRange::of(style.colorScale, images.largestWeight(), {});
    sheet.sharedLegend = style.colorScale != ColorScaleMode::PerHead;
    return sheet;
}

} // namespace

SheetContent SheetBuilder::heads(const std::shared_ptr<const Trace> &trace, int b,
                                 const PlotStyle &style, int maxCells)
{
    std::vector<int> all(size_t(trace->heads()));
    std::iota(all.begin(), all.end(), 0);
    return weightsSheet(HeadImages::make(trace, b, all, maxCells), *trace, b, style);
}

SheetContent SheetBuilder::head(const std::shared_ptr<const Trace> &trace, int b, int head,
                                const PlotStyle &style, int maxCells)
{
    head = std::clamp(head, 0, trace->heads() - 1);
    return weightsSheet(HeadImages::make(trace, b, {head}, maxCells), *trace, b, style);
}

SheetContent SheetBuilder::tensor(const Trace &trace, int b, TraceKey key, const PlotStyle &style,
                                  int maxCells)
{
    const TraceTensor *t = trace.find(key);
    const TensorPanels slices = TensorSlicer::slice(t->tensor, b);
    const bool probabilities = key == keys::softmax || key == keys::attentionWeights;
    double lo = INFINITY, hi = -INFINITY, largest = 0.0;
    for (const RowMatrix &m : slices.panels) {
        const auto [l, h] = ColorRange::finiteRangeOf(m);
        lo = std::min(lo, l);
        hi = std::max(hi, h);
        largest = probabilities ? std::max(largest, ColorRange::largestInformative(m)) : 0.0;
    }
    const std::pair<double, double> shared =
        lo <= hi ? std::make_pair(lo, hi) : std::make_pair(0.0, 1.0);
    SheetContent sheet;
    for (size_t i = 0; i < slices.panels.size(); ++i) {
        const RowMatrix &m = slices.panels[i];
        const ColorRange range = probabilities
                                     ? ColorRange::of(style.colorScale, largest,
                                                      style.colorScale == ColorScaleMode::PerHead
                                                          ? ColorRange::finiteRangeOf(m)
                                                          : shared)
                                     : ColorRange{shared.first, shared.second};
        sheet.panels.push_back(
            {MaxPool::pool(m, maxCells),
             int(m.rows()),
             int(m.cols()),
             maxCells,
             slices.perHead ? tr("head %1").arg(i + 1) : QString::fromStdString(t->name()),
             slices.perHead ? HeadColors::color(int(i), style.dark) : QColor(),
             range,
             {}});
    }
    const int rows = slices.panels.empty() ? 0 : int(slices.panels.front().rows());
    const int cols = slices.panels.empty() ? 0 : int(slices.panels.front().cols());
    sheet.rowLabels = axisLabels(trace, b, slices.rowsAxis, rows);
    sheet.colLabels = axisLabels(trace, b, slices.colsAxis, cols);
    sheet.tokenColumns = slices.colsAxis == "n" || slices.colsAxis == "n_kv";
    sheet.rowTitle = axisTitle(slices.rowsAxis);
    sheet.colTitle = axisTitle(slices.colsAxis);
    sheet.legendTitle = probabilities ? ColorRange::legendTitle(style.colorScale)
                                      : QString::fromStdString(t->name());
    sheet.legendRange = probabilities ? ColorRange::of(style.colorScale, largest, shared)
                                      : ColorRange{shared.first, shared.second};
    sheet.sharedLegend = !(probabilities && style.colorScale == ColorScaleMode::PerHead);
    return sheet;
}

SheetContent SheetBuilder::model(const ModelRun &run, const PlotStyle &style, int maxCells)
{
    SheetContent sheet;
    double largest = 0.0;
    for (int l = 0; l < run.layers; ++l)
        for (int h = 0; h < run.heads; ++h)
            largest = std::max(largest,
                               ColorRange::largestInformative(run.probabilities(l, h), run.causal));
    for (int l = 0; l < run.layers; ++l) {
        sheet.rowHeaders << tr("layer %1").arg(l);
        for (int h = 0; h < run.heads; ++h) {
            const ConstRowMatrixMap p = run.probabilities(l, h);
            RowMatrix pooled = MaxPool::pool(p, maxCells, run.causal);
            const std::pair<double, double> own{double(pooled.minCoeff<Eigen::PropagateNumbers>()),
                                                double(pooled.maxCoeff<Eigen::PropagateNumbers>())};
            sheet.panels.push_back({std::move(pooled),
                                    int(p.rows()),
                                    int(p.cols()),
                                    maxCells,
                                    QString(),
                                    QColor(),
                                    ColorRange::of(style.colorScale, largest, own),
                                    {}});
        }
    }
    for (int h = 0; h < run.heads; ++h)
        sheet.columnHeaders << (run.heads > 6 ? QString::number(h + 1) : tr("head %1").arg(h + 1));
    sheet.rowTitle = tr("query token");
    sheet.colTitle = tr("key token");
    sheet.legendTitle = ColorRange::legendTitle(style.colorScale);
    sheet.legendRange = ColorRange::of(style.colorScale, largest, {});
    sheet.sharedLegend = style.colorScale != ColorScaleMode::PerHead;
    return sheet;
}

SheetContent SheetBuilder::atlas(const HeadAtlas &atlas)
{
    SheetContent sheet;
    RowMatrix strength(atlas.layers, atlas.heads);
    QStringList types;
    for (int layer = 0; layer < atlas.layers; ++layer) {
        for (int head = 0; head < atlas.heads; ++head) {
            strength(layer, head) = float(atlas.typeStrength(layer, head));
            types << QString::fromStdString(atlas.typeLabel(layer, head));
        }
    }
    sheet.rowLabels = LayerHeadLabels::layers(atlas.layers);
    sheet.colLabels = LayerHeadLabels::heads(atlas.heads);
    // Shares of attention: the same scale for every model, as the Atlas tab's.
    const ColorRange shares{0.0, 1.0};
    sheet.panels.push_back({strength, atlas.layers, atlas.heads,
                            std::max(atlas.layers, atlas.heads), QString(), QColor(), shares,
                            types});
    sheet.rowTitle = tr("layer");
    sheet.colTitle = tr("head");
    sheet.legendTitle = tr("type's score above chance");
    sheet.legendRange = shares;
    sheet.tokenColumns = false;
    return sheet;
}

SheetContent SheetBuilder::logitLens(const LogitLens &lens, const std::vector<std::string> &tokens,
                                     int maxCells)
{
    SheetContent sheet;
    const ColorRange probability{0.0, 1.0}; // the same scale for every text and model
    const int stages = lens.stages(), positions = int(lens.positions.size());
    LensLabels labels = LensLabels::of(lens, tokens);
    sheet.rowLabels = labels.stages;
    sheet.colLabels = labels.positions;
    // Each stage's top token is written in its cell (drawn only when nothing is pooled).
    sheet.panels.push_back({MaxPool::pool(lens.finalProbability, maxCells), stages, positions,
                            maxCells, QString(), QColor(), probability, std::move(labels.tops)});
    sheet.rowTitle = tr("after");
    sheet.colTitle = tr("position");
    sheet.legendTitle = tr("probability of the final prediction");
    sheet.legendRange = probability;
    return sheet;
}

SheetContent SheetBuilder::rollout(const AttentionFlow &flow,
                                   const std::vector<std::string> &tokens, int maxCells)
{
    SheetContent sheet;
    const ColorRange share{0.0, 1.0};
    const int64_t layers = flow.rollout.shape().size(0);
    for (int64_t layer = 0; layer < layers; ++layer) {
        const ConstRowMatrixMap r = flow.rollout.matrix({layer});
        sheet.panels.push_back({MaxPool::pool(r, maxCells),
                                int(r.rows()),
                                int(r.cols()),
                                maxCells,
                                tr("rollout through layer %1").arg(layer),
                                QColor(),
                                share,
                                {}});
    }
    for (const std::string &token : tokens) // a run's tokens: display labels already
        sheet.rowLabels << QString::fromStdString(token);
    sheet.colLabels = sheet.rowLabels;
    sheet.rowTitle = tr("token");
    sheet.colTitle = tr("input token");
    sheet.legendTitle = tr("share of the token's stream");
    sheet.legendRange = share;
    return sheet;
}

SheetContent SheetBuilder::attribution(const LogitAttribution &attribution)
{
    SheetContent sheet;
    const RowMatrix &heads = attribution.heads;
    QStringList values;
    for (int layer = 0; layer < int(heads.rows()); ++layer)
        for (int head = 0; head < int(heads.cols()); ++head)
            values << QString::asprintf("%+.2f", double(heads(layer, head)));
    sheet.rowLabels = LayerHeadLabels::layers(int(heads.rows()));
    sheet.colLabels = LayerHeadLabels::heads(int(heads.cols()));
    const ColorRange range = symmetric(heads);
    sheet.panels.push_back({heads, int(heads.rows()), int(heads.cols()),
                            int(std::max(heads.rows(), heads.cols())), QString(), QColor(), range,
                            values});
    const QString token = QString::fromStdString(attribution.tokenLabel);
    sheet.legendTitle = attribution.wrong < 0
                            ? tr("direct attribution to logit(%1)").arg(token)
                            : tr("direct attribution to logit(%1) − logit(%2)")
                                  .arg(token, QString::fromStdString(attribution.wrongLabel));
    sheet.rowTitle = tr("layer");
    sheet.colTitle = tr("head");
    sheet.legendRange = range;
    sheet.tokenColumns = false;
    sheet.diverging = true;
    return sheet;
}

SheetContent SheetBuilder::circuits(const HeadCircuits &circuits, int tokens)
{
    SheetContent sheet;
    const QString head = tr("head %1.%2").arg(circuits.layer).arg(circuits.head + 1);
    const std::pair<const RowMatrix *, QString> maps[] = {
        {&circuits.circuit.qkTokens, tr("QK of %1").arg(head)},
        {&circuits.circuit.ovTokens, tr("OV of %1").arg(head)}};
    for (const auto &[map, title] : maps) {
        const RowMatrix shown = map->topLeftCorner(tokens, tokens);
        sheet.panels.push_back(
            {shown, tokens, tokens, std::max(tokens, 1), title, QColor(), symmetric(shown), {}});
    }
    for (int t = 0; t < tokens; ++t) // display labels already, as a run's
        sheet.rowLabels << QString::fromStdString(circuits.labels.at(size_t(t)));
    sheet.colLabels = sheet.rowLabels;
    sheet.rowTitle = tr("query · attended token");
    sheet.colTitle = tr("key · raised token");
    sheet.legendTitle = tr("QK score · logit change");
    sheet.sharedLegend = false; // each circuit on its own scale
    sheet.diverging = true;
    return sheet;
}

std::optional<TraceKey> SheetBuilder::stepTensor(const Trace &trace, const TraceStep &step)
{
    for (const auto *keys : {&step.outputs, &step.inputs})
        for (const TraceKey &key : *keys)
            if (trace.hasTensor(key))
                return key;
    return std::nullopt;
}

QStringList SheetBuilder::axisLabels(const Trace &trace, int b, const std::string &axis, int count)
{
    QStringList labels;
    for (int i = 0; i < count; ++i) {
        if (axis != "n" && axis != "n_kv") {
            labels << QString::number(i);
            continue;
        }
        const std::string token =
            axis == "n" ? trace.input.queryLabel(b, i) : trace.input.keyLabel(b, i);
        labels << (token.empty() ? tr("(pad)")
                                 : QString::fromStdString(Tokenizer::displayLabel(token)));
    }
    return labels;
}

QString SheetBuilder::axisTitle(const std::string &axis)
{
    if (axis == "n")
        return tr("query token");
    if (axis == "n_kv")
        return tr("key token");
    return QString::fromStdString(axis);
}

} // namespace headlens
