// CommandLineJob: options to TraceJob fields; the mistakes only options can make, in their words.
#include "commandlinejob.h"

#include "session/comparisonjob.h"
#include "util/inputerror.h"

namespace headlens {

TraceJob CommandLineJob::from(const CommandLineRequest &request)
{
    TraceJob job;
    job.config = request.config;
    job.chosen.dModel = request.dModelGiven;
    job.chosen.inputWidth = request.given.count("--d-in") > 0;
    job.chosen.bias = request.given.count("--no-bias") > 0;
    job.chosen.kvHeads = request.given.count("--kv-heads") > 0;
    job.texts = request.texts;
    job.kvTexts = request.kvTexts;
    addInterventions(request, job);
    if (request.given.count("--dla-position") && request.lens.token.empty())
        throw InputError("--dla-position says where --dla reads the logit: add --dla TOKEN.");
    if (request.lens.wanted() && request.modelDir.empty())
        throw InputError(std::string(request.lens.firstOption()) +
                         " reads a model's heads and predictions: add --model DIR (a GPT-2, "
                         "Llama, Qwen, Mistral or BERT folder, or a toy model's file).");
    job.lens = request.lens;
    if (!request.modelDir.empty()) {
        checkModelInput(request);
        if (!request.textFile.empty())
            job.texts = {request.textFile};
        job.model.path = request.modelDir;
        job.model.layer = request.modelLayer;
        job.tokenIds = request.tokenIds;
        if (!request.textPair.empty())
            job.kvTexts = {request.textPair};
        return job;
    }
    if (!request.textPair.empty() || request.fillMask)
        throw InputError(std::string(request.fillMask ? "--fill-mask" : "--text-pair") +
                         " goes with --model and an encoder (BERT, RoBERTa, DistilBERT): add "
                         "--model DIR.");
    checkLayerInput(request);
    job.inputPath = request.inputPath;
    job.kvInputPath = request.kvInputPath;
    job.maskPath = request.maskPath;
    job.weightsPath = request.weightsPath;
    return job;
}

TraceJob CommandLineJob::comparisonB(const TraceJob &job, const ComparisonRequest &b)
{
    return comparisonJob(job, b);
}

void CommandLineJob::addInterventions(const CommandLineRequest &request, TraceJob &job)
{
    const InterventionOptions &v = request.intervene;
    if (request.given.count("--ablate-mode") && v.ablate.empty())
        throw InputError("--ablate-mode says how --ablate removes a head: add --ablate L.H.");
    const bool model = !request.modelDir.empty();
    const InterventionKind kind =
        v.ablateMode == "mean" ? InterventionKind::Mean : InterventionKind::Zero;
    for (const auto &[layer, head] : v.ablate) {
        if (!model && layer != 0)
            throw InputError("The built-in layer is layer 0, so --ablate " + std::to_string(layer) +
                             "." + std::to_string(head) + " names no layer: write 0." +
                             std::to_string(head) + ", or add --model DIR.");
        job.interventions.items.push_back({layer, head - 1, kind, -1, -1});
    }
    if (v.compare.change == ComparedChange::Text && !v.compare.text.empty() &&
        (!request.inputPath.empty() || !request.tokenIds.empty()))
        throw InputError("--compare-text is text B, compared with the text: give the first one "
                         "with --text, not --input or --token-ids.");
    const bool patching = !v.patchFrom.empty();
    if (!patching && (!v.answer.empty() || !v.wrong.empty()))
        throw InputError("--answer and --wrong are the patching map's two tokens: add "
                         "--patch-from \"CLEAN TEXT\".");
    if (patching && (v.answer.empty() || v.wrong.empty()))
        throw InputError("--patch-from needs the metric's two tokens: add --answer \" Mary\" "
                         "--wrong \" John\" (logit(answer) - logit(wrong) at the last position).");
    if (!patching &&
        (request.given.count("--patch-direction") || request.given.count("--patch-positions")))
        throw InputError("--patch-direction and --patch-positions shape the patching map: add "
                         "--patch-from \"CLEAN TEXT\" --answer A --wrong B.");
    if (patching && v.importance)
        throw InputError("Give --importance or --patch-from, not both: each runs one pass per "
                         "head.");
    if ((patching || v.importance) && !model)
        throw InputError(std::string(patching ? "--patch-from" : "--importance") +
                         " ranks a model's heads by a loss or a logit: add --model DIR (a GPT-2, "
                         "Llama, BERT folder or a toy .npz).");
    if ((patching || v.importance) && !v.ablate.empty())
        throw InputError(std::string(patching ? "--patch-from" : "--importance") +
                         " intervenes on each head of the unablated model; leave --ablate out.");
    if (v.importance)
        job.ranking.kind = RankingRequest::Kind::Importance;
    if (patching)
        job.ranking = v.patching();
}

void CommandLineJob::checkLayerInput(const CommandLineRequest &request)
{
    if (!request.inputPath.empty())
        return;
    if (!request.maskPath.empty() || !request.kvInputPath.empty())
        throw InputError("--key-padding-mask and --kv-input go with --input; with --text the "
                         "padding mask is made from the sentence lengths.");
    if (request.texts.empty())
        throw InputError("There is no text to attend over: give a sentence with --text "
                         "\"The movie was not bad\", a file with --text-file, or vectors with "
                         "--input X.npy.");
}

void CommandLineJob::checkModelInput(const CommandLineRequest &request)
{
    if (!request.tokenIds.empty()) {
        if (!request.texts.empty())
            throw InputError("Give either --text or --token-ids with --model, not both.");
        if (!request.textPair.empty())
            throw InputError("--text-pair goes with --text: --token-ids already holds the "
                             "pair's tokens, with its special tokens.");
    } else if (!request.textFile.empty() && request.given.count("--text") > 0) {
        throw InputError("Give either --text or --text-file with --model, not both: the model "
                         "reads one text.");
    } else if (request.texts.size() != 1 && request.textFile.empty()) {
        throw InputError(request.texts.empty()
                             ? "There is no text for the model: give one with --text \"Hello "
                               "world\" or ids with --token-ids 15496,995."
                             : "--model runs one text at a time; give a single --text.");
    }
    if (!request.kvTexts.empty() || !request.inputPath.empty() || !request.weightsPath.empty())
        throw InputError("--model runs the model's own layers: --kv-text, --input and --weights "
                         "do not apply to it.");
}

} // namespace headlens
