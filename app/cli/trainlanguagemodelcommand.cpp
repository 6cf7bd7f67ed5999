// TrainLanguageModelCommand: the text, the preset's settings, the loop with its reports.
#include "trainlanguagemodelcommand.h"

#include "model/memoryneeds.h"
#include "printfline.h"
#include "stories/storygenerator.h"
#include "text/printableline.h"
#include "train/gpt2folderwriter.h"
#include "train/languagemodelcheck.h"
#include "train/languagemodelpreset.h"
#include "train/storyprobe.h"
#include "train/tokensampler.h"
#include "train/trainer.h"
#include "train/traininglog.h"
#include "train/trainingtext.h"
#include "train/trainingtokens.h"
#include "trainsizeoptions.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <algorithm>
#include <chrono>

namespace headlens {

namespace {

int64_t parameterCount(const ToyParameters &parameters, bool layerNorm)
{
    int64_t count = 0;
    for (const ParameterViewT<const float> &view : parameters.views(layerNorm))
        count += view.size();
    return count;
}

} // namespace

int TrainLanguageModelCommand::printStories(const CommandLineRequest &request)
{
    m_out << StoryGenerator(request.config.seed).generate(size_t(request.train.storyBytes)).text
          << std::flush;
    return 0;
}

TrainingSettings TrainLanguageModelCommand::settingsFor(const CommandLineRequest &request,
                                                        const LanguageModelPreset &preset,
                                                        int vocabulary)
{
    const TrainOptions &t = request.train;
    TrainingSettings s = preset.settings(vocabulary, t.steps, request.config.seed);
    applyTrainSizeOptions(request, s);
    s.model.mlp = !t.attentionOnly;
    // The layer's own options name the model's: rotary positions, shared K/V heads, dropout.
    if (request.given.count("--attention-positions")) {
        const AttentionPositions positions = request.config.attentionPositions;
        if (positions != AttentionPositions::None && positions != AttentionPositions::Rope)
            throw InputError("--train-lm's models take --attention-positions none (learned "
                             "positions) or rope (split-half RoPE, as Llama), not " +
                             toString(positions) + ".");
        s.model.rope = positions == AttentionPositions::Rope;
    }
    if (request.given.count("--kv-heads"))
        s.model.kvHeads = request.config.kvHeads;
    if (request.given.count("--dropout"))
        s.model.dropout = request.config.dropout;
    if (auto problem = s.validateLanguageModel())
        throw InputError(*problem);
    return s;
}

std::string TrainLanguageModelCommand::sizesOf(const ToyModelConfig &model,
                                               const LanguageModelPreset &preset)
{
    const ToyModelConfig &p = preset.model;
    if (model.layers == p.layers && model.heads == p.heads && model.dModel == p.dModel &&
        model.maxLength == p.maxLength)
        return preset.name + ": " + preset.summary;
    return printfLine("custom: %d layer%s, %d head%s, d_model %d, context %d", model.layers,
                      model.layers == 1 ? "" : "s", model.heads, model.heads == 1 ? "" : "s",
                      model.dModel, model.maxLength);
}

void TrainLanguageModelCommand::printRelations(const Trainer &trainer, const TrainingTokens &tokens,
                                               const StoryText &stories, size_t heldOutFrom)
{
    const auto heads =
        storyProbe(trainer.model(), tokens, stories.relations, heldOutFrom, kProbeWindows);
    const ToyModelConfig &c = trainer.settings().model;
    // A kind none of whose relations fits a window (a subject far from its verb, in a short
    // context) is "n/a", not a score of 0.
    const auto cell = [](const RelationScore &s, double value, int width) {
        return s.count > 0 ? printfLine("%*.3f", width, value) : printfLine("%*s", width, "n/a");
    };
    m_out << "Heads against the stories' relations (mean attention from a word onto the word it "
             "refers to, on held-out stories):\n"
          << "  layer  head  antecedent  subject  bracket   (chance"
          << cell(heads[0][0], heads[0][0].chance, 6) << ","
          << cell(heads[0][1], heads[0][1].chance, 6) << ","
          << cell(heads[0][2], heads[0][2].chance, 6) << ")\n";
    for (size_t h = 0; h < heads.size(); ++h)
        m_out << printfLine("  %5d  %4d  ", int(h) / c.heads, int(h) % c.heads + 1)
              << cell(heads[h][0], heads[h][0].score, 10) << "  "
              << cell(heads[h][1], heads[h][1].score, 7) << "  "
              << cell(heads[h][2], heads[h][2].score, 7) << "\n";
}

int TrainLanguageModelCommand::run(const CommandLineRequest &request)
{
    const TrainOptions &t = request.train;
    const auto preset = LanguageModelPreset::named(t.preset);
    if (!preset)
        throw InputError("--preset expects " + LanguageModelPreset::names() + ", got '" +
                         quotedText(t.preset) + "'.");
    // Without a text of the person's own: the generated stories, whose relations the heads
    // are scored against at the end.
    std::optional<StoryText> stories;
    if (t.textPath.empty())
        stories = StoryGenerator(request.config.seed).generate(kStoryBytes);
    const std::string textName =
        stories ? "generated stories (seed " + std::to_string(request.config.seed) + ")"
                : t.textPath;
    const std::string text = stories ? stories->text : TrainingText::read(t.textPath);
    const TrainingTokens tokens = t.bpeVocabulary > 0 ? TrainingTokens::bpe(text, t.bpeVocabulary)
                                                      : TrainingTokens::bytes(text);
    const std::vector<int> &ids = tokens.ids();

    TrainingSettings s = settingsFor(request, *preset, tokens.vocabulary());
    const int n = s.model.maxLength;
    checkLanguageModelRun(s, ids.size(), textName, MemoryNeeds::availableBytes());
    if (auto problem = Gpt2FolderWriter::unsupported(s.model); problem && !t.savePath.empty())
        throw InputError(*problem + " It cannot be saved with --save.");
    Trainer trainer(s, std::make_shared<TextBatches>(ids, n, tokens.labels()));

    m_out << "Training a language model, " << sizesOf(s.model, *preset) << ", "
          << printfLine("%.2f M parameters\n",
                        double(parameterCount(trainer.trainedModel().parameters, true)) / 1e6)
          << "Text: " << textName << ", " << text.size() << " bytes, " << ids.size() << " tokens ("
          << tokens.name() << ", vocabulary " << tokens.vocabulary()
          << "); the last tenth held out\n"
          << printfLine("AdamW: lr %g, weight decay %g, warm-up %d steps then cosine decay; batch "
                        "%d x %d tokens; seed %llu\n",
                        double(s.learningRate), double(s.weightDecay), s.warmupSteps, s.batchSize,
                        n, static_cast<unsigned long long>(s.seed))
          << "   step  train loss  held-out loss  unrepeated  repeated  tokens/s  seconds\n";
    const auto start = std::chrono::steady_clock::now();
    const std::vector<int> prompt(ids.begin() + n, ids.begin() + 2 * n);
    TrainingLog log(s);
    Evaluation evaluation;
    InContextScores repeats;
    while (trainer.stepsDone() < t.steps) {
        const int chunk = int(std::min<int64_t>(t.reportEvery, t.steps - trainer.stepsDone()));
        const TrainingMetrics metrics = trainer.step(chunk);
        evaluation = trainer.evaluate();
        repeats = trainer.inContext();
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double tokensPerSecond =
            double(metrics.step) * s.batchSize * n / std::max(1e-9, metrics.seconds);
        m_out << printfLine("%7lld  %10.4f  %13.4f  %10.3f  %8.3f  %8.0f  %7.1f\n",
                            static_cast<long long>(metrics.step), metrics.loss, evaluation.loss,
                            repeats.unrepeatedLoss, repeats.repeatedLoss, tokensPerSecond, wall);
        const bool copyingBefore = log.copyingStep() >= 0;
        log.add({metrics.step, metrics.seconds, metrics.loss, evaluation.loss,
                 repeats.unrepeatedLoss, repeats.repeatedLoss,
                 *std::max_element(repeats.induction.begin(), repeats.induction.end()),
                 *std::max_element(repeats.previousToken.begin(), repeats.previousToken.end())});
        if (!copyingBefore && log.copyingStep() >= 0)
            m_out << "         ^ in-context copying: a repeated run's loss fell below "
                  << TrainingLog::kCopyingRatio << " of the same run's unrepeated\n";
        if (t.sampleTokens > 0)
            m_out << "         sample: "
                  << printableLine(tokens.decode(sampleTokens(
                         trainer.model(), prompt, t.sampleTokens, 0.8f, uint64_t(metrics.step))))
                  << "\n";
        m_out << std::flush;
    }
    m_out << "Heads (mean attention weight; held-out text, and repeated runs of it):\n"
          << "  layer  head  previous-token  induction  | repeats: previous-token  induction\n";
    for (size_t i = 0; i < evaluation.heads.size(); ++i) {
        const HeadScores &head = evaluation.heads[i];
        m_out << printfLine("  %5d  %4d  %14.3f  %9.3f  |          %14.3f  %9.3f\n", head.layer,
                            head.head + 1, head.previousToken, head.induction,
                            repeats.previousToken[i], repeats.induction[i]);
    }
    if (stories)
        printRelations(trainer, tokens, *stories, ids.size() - trainer.text()->heldOutTokens());
    if (!t.savePath.empty()) {
        ToyModel::Activations acts;
        trainer.model().forward(prompt, 1, int(prompt.size()), acts);
        const auto last = acts.logits.row(acts.logits.rows() - 1);
        log.setCheck(prompt, std::vector<float>(last.data(), last.data() + last.size()));
        Gpt2FolderWriter::write(t.savePath, s.model, trainer.model().parameters(),
                                tokens.tokenizerJson(), log.toJson(textName, tokens.name()));
        m_out << "Saved the model to " << t.savePath
              << " (a Hugging Face GPT-2 folder: open it with headlens --model " << t.savePath
              << ")\n";
    }
    if (log.copyingStep() >= 0)
        m_out << "In-context copying appeared at step " << log.copyingStep() << ".\n";
    else
        m_out << "In-context copying has not appeared yet (a repeated run's loss is above "
              << TrainingLog::kCopyingRatio << " of the unrepeated): train for more steps.\n";
    return 0;
}

} // namespace headlens
