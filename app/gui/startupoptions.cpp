// StartupOptions: copies exactly the settings a person gave on the command line.
#include "startupoptions.h"

#include "util/inputerror.h"

#include <QFileInfo>
#include <QStringList>

namespace headlens {

namespace {

/// One sequence per line, as the editors hold them.
QString asEditorText(const std::vector<std::string> &sequences)
{
    QStringList lines;
    for (const std::string &sequence : sequences)
        lines << QString::fromStdString(sequence);
    return lines.join('\n');
}

} // namespace

WorkspaceState StartupOptions::appliedTo(WorkspaceState state) const
{
    const CommandLineRequest &r = m_request;
    if (!r.inputPath.empty() || !r.kvInputPath.empty() || !r.maskPath.empty())
        throw InputError("The window works from text: --input, --kv-input and "
                         "--key-padding-mask are for headlens-cli.");
    auto given = [&r](const char *option) { return r.given.count(option) > 0; };
    const AttentionConfig &from = r.config;
    AttentionConfig &to = state.config;
    if (given("--d-model"))
        to.dModel = from.dModel;
    if (given("--d-in"))
        to.dIn = from.dIn;
    if (given("--heads"))
        to.heads = from.heads;
    if (given("--d-k") || given("--d-v")) {
        to.tied = false;
        to.dK = given("--d-k") ? from.dK : to.dK;
        to.dV = given("--d-v") ? from.dV : to.dV;
    }
    if (given("--seed"))
        to.seed = from.seed;
    if (given("--scale")) {
        to.scale = from.scale;
        to.temperature = from.temperature;
    }
    if (given("--causal"))
        to.causal = true;
    if (given("--no-bias"))
        to.bias = false;
    if (given("--dropout")) {
        to.dropout = from.dropout;
        to.training = from.training;
    }
    if (given("--kv-heads"))
        to.kvHeads = from.kvHeads;
    if (given("--attention-positions"))
        to.attentionPositions = from.attentionPositions;
    if (given("--rope-theta"))
        to.ropeTheta = from.ropeTheta;
    if (given("--rope-offset"))
        to.ropePositionOffset = from.ropePositionOffset;
    if (given("--window"))
        to.window = from.window;
    if (given("--positional"))
        to.positional = from.positional;
    if (given("--tokenizer"))
        to.tokenizer = from.tokenizer;
    if (given("--memory-budget"))
        to.memoryBudgetBytes = from.memoryBudgetBytes;
    if (!r.texts.empty())
        state.text = asEditorText(r.texts);
    if (!r.kvTexts.empty()) {
        state.kvText = asEditorText(r.kvTexts);
        state.crossAttention = true;
    }
    // An encoder's sentence B: the second box, which the window reads as B once the model reads
    // pairs (headlens-cli's --text-pair). It was accepted here and then ignored.
    if (!r.textPair.empty())
        state.kvText = QString::fromStdString(r.textPair);
    if (!r.weightsPath.empty())
        state.weightsPath = QString::fromStdString(r.weightsPath);
    if (!r.modelDir.empty()) // a GPT-2 folder or a toy model .npz
        state.modelPath = QFileInfo(QString::fromStdString(r.modelDir)).absoluteFilePath();
    if (given("--layer"))
        state.modelLayer = r.modelLayer;
    return state;
}

} // namespace headlens
