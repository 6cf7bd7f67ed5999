// TrainCommand: settings from the command line, the training loop with reports, the saved model.
#include "traincommand.h"

#include "printfline.h"
#include "train/toymodelfile.h"
#include "train/trainer.h"
#include "trainsizeoptions.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <algorithm>
#include <chrono>

namespace headlens {

TrainingSettings TrainCommand::settingsFor(const CommandLineRequest &request)
{
    const TrainOptions &t = request.train;
    const auto task = taskKindFromString(t.task);
    if (!task)
        throw InputError("--train expects previous, reverse, sort or induction, got '" +
                         quotedText(t.task) + "'.");
    TrainingSettings s = TrainingSettings::defaultsFor(*task);
    applyTrainSizeOptions(request, s);
    if (request.given.count("--seed"))
        s.seed = request.config.seed;
    s.model.vocabulary = t.vocabulary > 0 ? t.vocabulary : s.model.vocabulary;
    s.model.layerNorm = s.model.layerNorm || t.layerNorm;
    if (auto problem = s.validate())
        throw InputError(*problem);
    return s;
}

int TrainCommand::run(const CommandLineRequest &request)
{
    const TrainingSettings s = settingsFor(request);
    const TrainOptions &t = request.train;
    Trainer trainer(s);
    m_out << "Training " << toString(s.task) << ": " << trainer.task().description() << "\n"
          << printfLine(
                 "%d layer(s), %d head(s), d_model %d, vocabulary %d, sequence %d%s, batch %d, "
                 "lr %g, seed %llu\n",
                 s.model.layers, s.model.heads, s.model.dModel, s.model.vocabulary,
                 s.model.maxLength, s.model.layerNorm ? ", LayerNorm" : "", s.batchSize,
                 double(s.learningRate), static_cast<unsigned long long>(s.seed))
          << "   step  train loss  train acc  held-out loss  held-out acc  seconds\n";
    const auto start = std::chrono::steady_clock::now();
    Evaluation evaluation;
    while (trainer.stepsDone() < t.steps) {
        const int chunk = int(std::min<int64_t>(t.reportEvery, t.steps - trainer.stepsDone()));
        const TrainingMetrics metrics = trainer.step(chunk);
        evaluation = trainer.evaluate();
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        m_out << printfLine("%7lld  %10.4f  %9.3f  %13.4f  %12.3f  %7.2f\n",
                            static_cast<long long>(metrics.step), metrics.loss, metrics.accuracy,
                            evaluation.loss, evaluation.accuracy, wall)
              << std::flush;
        if (t.untilAccuracy > 0.0 && evaluation.accuracy >= t.untilAccuracy) {
            m_out << printfLine("Reached held-out accuracy %.3f at step %lld after %.2f s (%.2f s "
                                "training, the rest evaluation).\n",
                                evaluation.accuracy, static_cast<long long>(trainer.stepsDone()),
                                wall, trainer.secondsTrained());
            break;
        }
    }
    m_out << "Head scores on the held-out set (mean attention weight):\n"
          << "  layer  head  previous-token  induction\n";
    for (const HeadScores &head : evaluation.heads)
        // Heads counted from 1 as everywhere people read them; layers from 0 (h.0, h.1, ...).
        m_out << printfLine("  %5d  %4d  %14.3f  %9.3f\n", head.layer, head.head + 1,
                            head.previousToken, head.induction);
    if (!t.savePath.empty()) {
        ToyModelFile::save(t.savePath, trainer.trainedModel());
        m_out << "Saved the model to " << t.savePath << "\n";
    }
    return 0;
}

} // namespace headlens
