// runDatasetExperiment: one prompt at a time through the model's own analyses, then the
// statistics over them.
#include "corpus/datasetexperiment.h"

#include "attention/attentionforward.h"
#include "model/headatlasprobe.h"
#include "model/headimportance.h"
#include "model/logitattribution.h"
#include "model/patchingmap.h"
#include "util/inputerror.h"

#include <algorithm>
#include <cmath>

namespace headlens {

namespace {

/// The atlas scores a prompt measures (textAtlas), in the order of the result's measures.
constexpr AtlasScore kPromptAtlasScores[] = {
    AtlasScore::FirstToken, AtlasScore::Self, AtlasScore::Offset,     AtlasScore::Local,
    AtlasScore::Cls,        AtlasScore::Sep,  AtlasScore::Punctuation};

/// `progress` over [from, to] of the whole.
std::function<bool(double)> within(const std::function<bool(double)> &progress, double from,
                                   double to)
{
    return [progress, from, to](double fraction) {
        if (progress && !progress(from + (to - from) * fraction))
            throw Cancelled();
        return true;
    };
}

/// (L, h, d_v): each head's output averaged over every token of every text of `dataset`.
Tensor datasetHeadMeans(const OpenedModel &model, const Dataset &dataset,
                        const std::function<bool(double)> &progress)
{
    Eigen::MatrixXd sums;
    Shape shape;
    int64_t tokens = 0;
    for (size_t p = 0; p < dataset.prompts.size(); ++p) {
        const std::vector<int> ids = model.encode(dataset.prompts[p].text);
        const auto run = model.run(ModelInput(ids), 0,
                                   within(progress, double(p) / double(dataset.prompts.size()),
                                          double(p + 1) / double(dataset.prompts.size())));
        if (run->headOutputSums.isEmpty())
            throw InputError("A mean ablation over a dataset needs each head's outputs, which " +
                             model.family() + " runs do not keep: use --ablate-mode zero.");
        shape = run->headOutputSums.shape();
        const ConstRowMatrixMap runSums(run->headOutputSums.data(), shape.size(0) * shape.size(1),
                                        shape.size(2));
        if (sums.size() == 0)
            sums = Eigen::MatrixXd::Zero(runSums.rows(), runSums.cols());
        sums += runSums.cast<double>();
        tokens += int64_t(ids.size());
    }
    Tensor means(shape);
    RowMatrixMap(means.data(), sums.rows(), sums.cols()) = (sums / double(tokens)).cast<float>();
    return means;
}

/// The measures of one prompt, in the result's order, or the sentence why it is left out.
struct PromptValues
{
    std::vector<RowMatrix> values;
    std::string skipped;
};

} // namespace

void meanAndSpread(const Tensor &perPrompt, RowMatrix &mean, RowMatrix &spread)
{
    const int64_t prompts = perPrompt.shape().size(0), layers = perPrompt.shape().size(1),
                  heads = perPrompt.shape().size(2);
    mean.resize(layers, heads);
    spread.resize(layers, heads);
    std::vector<double> values;
    for (int64_t layer = 0; layer < layers; ++layer) {
        for (int64_t head = 0; head < heads; ++head) {
            values.clear();
            for (int64_t p = 0; p < prompts; ++p) {
                const float value = perPrompt.matrix({p})(layer, head);
                if (!std::isnan(value))
                    values.push_back(double(value));
            }
            double sum = 0.0, squares = 0.0;
            for (double value : values)
                sum += value;
            const double average = sum / double(values.size()); // NaN for none
            for (double value : values)
                squares += (value - average) * (value - average);
            mean(layer, head) = float(average);
            spread(layer, head) = values.size() > 1
                                      ? float(std::sqrt(squares / double(values.size() - 1)))
                                  : values.empty() ? std::nanf("")
                                                   : 0.0f;
        }
    }
}

DatasetResult runDatasetExperiment(const OpenedModel &model, const Dataset &dataset,
                                   const DatasetRequest &request,
                                   const std::function<bool(double)> &progress)
{
    DatasetResult result;
    std::vector<DatasetMeasure> measures;
    const auto measure = [&measures](std::string name, std::string meaning) {
        DatasetMeasure added;
        added.name = std::move(name);
        added.meaning = std::move(meaning);
        measures.push_back(std::move(added));
    };
    if (dataset.pairs) {
        measure("patching", "share of logit(answer) - logit(wrong) restored by patching the head "
                            "from the clean text into the corrupted one");
    } else {
        measure("importance", std::string("loss increase with the head ") +
                                  (request.ablation == InterventionKind::Mean
                                       ? "replaced by its mean output over the dataset"
                                       : "zero-ablated"));
        if (!request.dlaToken.empty())
            measure("dla",
                    "direct logit attribution at the last token of logit(" + request.dlaToken +
                        (request.dlaWrong.empty() ? ")" : ") - logit(" + request.dlaWrong + ")"));
        if (request.atlas)
            for (AtlasScore kind : kPromptAtlasScores)
                measure(std::string("atlas_") + columnName(kind),
                        std::string("atlas score \"") + toString(kind) +
                            "\" on each prompt (a share of the head's attention)");
    }
    // The answers are checked once, before any work: a mistake there is the dataset's, not a
    // prompt's.
    const std::string purpose = "direct logit attribution splits up one token's logit";
    const int dlaToken =
        request.dlaToken.empty() ? -1 : model.answerToken(request.dlaToken, purpose);
    const int dlaWrong =
        request.dlaWrong.empty() ? -1 : model.answerToken(request.dlaWrong, purpose);

    // A mean ablation first averages every head's output over the dataset: a pass per prompt.
    const bool meanPass = !dataset.pairs && request.ablation == InterventionKind::Mean;
    const double share = meanPass ? 0.25 : 0.0;
    ImportanceAblation ablation{request.ablation, {}};
    if (meanPass) {
        ablation.means = datasetHeadMeans(model, dataset, within(progress, 0.0, share));
        result.headOutputMeans = ablation.means;
    }

    std::vector<std::vector<RowMatrix>> collected(measures.size());
    const size_t count = dataset.prompts.size();
    for (size_t p = 0; p < count; ++p) {
        const DatasetPrompt &prompt = dataset.prompts[p];
        // The prompt's share of the whole, split evenly between its analyses.
        const double from = share + (1.0 - share) * double(p) / double(count),
                     to = share + (1.0 - share) * double(p + 1) / double(count);
        const int analyses = 1 + (dlaToken >= 0 ? 1 : 0) + (request.atlas ? 1 : 0);
        const auto part = [&](int analysis) {
            const double width = (to - from) / double(analyses);
            return within(progress, from + width * analysis, from + width * (analysis + 1));
        };
        PromptValues values;
        try {
            const ModelInput input(model.encode(prompt.text));
            if (dataset.pairs) {
                PatchingQuestion question;
                question.answer = model.answerToken(prompt.answer);
                question.wrong = model.answerToken(prompt.wrong);
                values.values.push_back(
                    model.patching(ModelInput(model.encode(prompt.clean)), input, question, part(0))
                        .restored);
            } else {
                values.values.push_back(model.importance(input, ablation, part(0)).lossIncrease);
                if (dlaToken >= 0)
                    values.values.push_back(
                        model.attribution(input, -1, dlaToken, dlaWrong, 0, part(1)).heads);
                if (request.atlas) {
                    const HeadAtlas atlas = textAtlas(*model.run(input, 0, part(analyses - 1)));
                    for (AtlasScore kind : kPromptAtlasScores)
                        values.values.push_back(ConstRowMatrixMap(
                            atlas.scores.row(int(kind)).data(), atlas.layers, atlas.heads));
                }
            }
        } catch (const InputError &error) {
            values.skipped = "line " + std::to_string(prompt.line) + ": " + error.what();
        }
        if (!values.skipped.empty()) {
            result.skipped.push_back(values.skipped);
            continue;
        }
        result.lines.push_back(prompt.line);
        for (size_t m = 0; m < measures.size(); ++m)
            collected[m].push_back(std::move(values.values[m]));
    }
    if (result.lines.empty())
        throw InputError("No prompt of dataset " + dataset.path +
                         " could be measured; the first, " + result.skipped.front());
    result.layers = int(collected[0][0].rows());
    result.heads = int(collected[0][0].cols());
    for (size_t m = 0; m < measures.size(); ++m) {
        DatasetMeasure &kept = measures[m];
        // A score no prompt measures (a decoder's [CLS]) is no measure.
        if (std::all_of(collected[m].begin(), collected[m].end(),
                        [](const RowMatrix &values) { return values.array().isNaN().all(); }))
            continue;
        kept.perPrompt = Tensor(Shape{{"prompt", int64_t(collected[m].size())},
                                      {"layer", result.layers},
                                      {"h", result.heads}});
        for (size_t p = 0; p < collected[m].size(); ++p)
            kept.perPrompt.matrix({int64_t(p)}) = collected[m][p];
        meanAndSpread(kept.perPrompt, kept.mean, kept.spread);
        result.measures.push_back(std::move(kept));
    }
    return result;
}

} // namespace headlens
