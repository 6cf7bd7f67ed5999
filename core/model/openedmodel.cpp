// OpenedModel: the settings summary every family shows in the Model box; the lens's refusal.
#include "model/openedmodel.h"

#include "stories/storygenerator.h"
#include "util/inputerror.h"

#include <cstdio>
#include <unordered_set>

namespace headlens {

namespace {

/// Why a model without a checkpoint's output head has no lens: the toy models' tasks.
[[noreturn]] void noLens(const OpenedModel &model, const std::string &analysis)
{
    throw InputError(analysis + " reads a checkpoint's residual stream through its output head; " +
                     model.name() +
                     " has none. Open a checkpoint folder (GPT-2, Llama, Qwen, Mistral, BERT, or a "
                     "language model trained in the Train tab).");
}

} // namespace

LogitLens OpenedModel::logitLens(const ModelInput &, int, const std::function<bool(double)> &) const
{
    noLens(*this, "The logit lens");
}

LogitAttribution OpenedModel::attribution(const ModelInput &, int, int, int, int,
                                          const std::function<bool(double)> &) const
{
    noLens(*this, "Direct logit attribution");
}

HeadCircuits OpenedModel::circuits(int, int, const std::vector<int> &) const
{
    throw InputError("The QK and OV circuits read a checkpoint's token embeddings and output "
                     "head; " +
                     family() + " has neither. Open a GPT-2, Llama, Qwen, Mistral or BERT folder.");
}

OpenedModel::ProbePool OpenedModel::probePool() const
{
    const std::vector<int> text = encodePiece(StoryGenerator(0).generate(4096).text);
    std::vector<int> distinct;
    std::unordered_set<int> seen;
    for (int id : text)
        if (seen.insert(id).second)
            distinct.push_back(id);
    if (distinct.size() <= 256)
        return {text, RunKind::TextSegment};
    return {distinct, RunKind::RandomTokens};
}

std::string OpenedModel::summary(const AttentionConfig &c, int layers, int vocabulary, int context)
{
    const auto n = [](double v) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", v);
        return std::string(text);
    };
    // "1 head · 1 layer" for a toy model: the summary said "1 heads · 1 layers".
    const auto count = [](int k, const std::string &noun) {
        return std::to_string(k) + " " + noun + (k == 1 ? "" : "s");
    };
    std::string attention = "d_model " + std::to_string(c.dModel) + " · " + count(c.heads, "head");
    if (c.kvHeadCount() != c.heads)
        attention += " · " + count(c.kvHeadCount(), "K/V head");
    attention += " · d_k " + std::to_string(c.headDimK()) + (c.causal ? " · causal" : "");
    std::string positions;
    if (c.usesRope())
        positions = "\nRoPE theta " + n(c.ropeTheta) +
                    (c.ropeScaling.kind == RopeScaling::Kind::None
                         ? std::string()
                         : ", scaling " + c.ropeScaling.describe()) +
                    (c.qkNorm ? " · q/k norms" : "");
    if (c.window > 0)
        positions +=
            (positions.empty() ? "\n" : " · ") + std::string("window ") + std::to_string(c.window);
    return attention + positions + "\n" + count(layers, "layer") + " · vocabulary " +
           std::to_string(vocabulary) + " · context " + std::to_string(context);
}

int OpenedModel::answerToken(const std::string &answer, const std::string &purpose) const
{
    const std::vector<int> ids = encodePiece(answer);
    if (ids.size() == 1)
        return ids.front();
    std::string pieces;
    for (int id : ids)
        pieces += " [" + tokenLabel(id) + "]";
    throw InputError("The answer \"" + answer + "\" is " + std::to_string(ids.size()) +
                     " tokens for this " + family() + (ids.empty() ? "" : ":" + pieces) + "; " +
                     purpose +
                     ". Pick a word that is one "
                     "token (GPT-2's words usually start with a space: \" Mary\").");
}

} // namespace headlens
