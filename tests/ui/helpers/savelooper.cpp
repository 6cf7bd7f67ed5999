// savelooper: saves a workspace, a trained toy model, a language model's folder and two exports
// in a loop until killed, for tst_killedsaves. Usage: savelooper FOLDER FIRST_GENERATION
#include "export/figureexporter.h"
#include "export/tensorexporter.h"
#include "runner/jobbuilder.h"
#include "session/session.h"
#include "text/bytetokenizerjson.h"
#include "train/gpt2folderwriter.h"
#include "train/languagemodelpreset.h"
#include "train/toymodelfile.h"
#include "train/trainer.h"
#include "workspace/workspacefile.h"

#include <QApplication>
#include <QDir>

#include <cstdio>

using namespace headlens;

/// Generation g writes: the workspace with the text "generation g" and seed g, the toy model
/// with g steps recorded, the Micro language model folder "lm" whose first embedding value and
/// training log both say g, the trace's JSON summary and the heads figure of seed g. Prints
/// "ready" before the first save and "g" after each complete round.
int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    if (argc != 3)
        return 2;
    const QDir folder(QString::fromLocal8Bit(argv[1]));
    TrainingSettings settings = TrainingSettings::defaultsFor(TaskKind::PreviousToken);
    settings.model = {1, 2, 16, 8, 8, false};
    TrainedModel model = Trainer(settings).trainedModel();
    const ToyModelConfig micro = LanguageModelPreset::named("micro")->model;
    ToyParameters language = ToyParameters::initialize(micro, 1);
    WorkspaceState state;
    state.config.dModel = 16;
    state.config.heads = 2;
    FigureRequest figure;
    figure.dpi = 60;
    std::printf("ready\n");
    std::fflush(stdout);
    for (long long g = std::atoll(argv[2]);; ++g) {
        state.text = QString("generation %1").arg(g);
        state.config.seed = static_cast<uint64_t>(g);
        WorkspaceFile::save(folder.filePath("lesson.headlens"), state);
        model.steps = g;
        ToyModelFile::save(folder.filePath("toy.npz").toStdString(), model);
        language.tokenEmbedding(0, 0) = float(g);
        Gpt2FolderWriter::write(folder.filePath("lm").toStdString(), micro, language,
                                byteTokenizerJson(), "{\"generation\": " + std::to_string(g) + "}");
        const auto trace = Session().run(*JobBuilder::jobFor(state)).trace;
        TensorExporter::writeJsonSummary(*trace, folder.filePath("trace.json"));
        FigureExporter(trace).write(folder.filePath("heads.png"), figure);
        std::printf("%lld\n", g);
        std::fflush(stdout);
    }
}
