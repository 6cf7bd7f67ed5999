// DatasetCommand: the dataset's prompts through the model, then a table of means and spreads.
#include "datasetcommand.h"

#include "rankingprinter.h"

#include "corpus/datasetexport.h"
#include "model/modelopener.h"
#include "util/inputerror.h"

#include <algorithm>

namespace headlens {

int DatasetCommand::run(const CommandLineRequest &request)
{
    if (request.modelDir.empty())
        throw InputError("--dataset runs a model's heads over its prompts: give --model with a "
                         "checkpoint folder or a toy model .npz.");
    if (!request.texts.empty() || !request.tokenIds.empty())
        throw InputError("--dataset reads its prompts from the file; leave out --text, "
                         "--text-file and --token-ids.");
    if (!request.intervene.corpusPath.empty())
        throw InputError("--dataset and --corpus each read a file of texts: use one of them.");
    if (!request.intervene.ablate.empty())
        throw InputError("--dataset ablates each head alone in turn; leave out --ablate (and "
                         "choose how with --ablate-mode zero|mean).");
    const Dataset dataset = DatasetFile::read(request.intervene.datasetPath);
    if (dataset.pairs && !request.lens.token.empty())
        throw InputError("--dla splits up a logit on a dataset of texts; " + dataset.path +
                         " holds patching pairs, whose answers are in each line.");
    if (dataset.pairs && request.lens.atlas)
        throw InputError("--atlas scores each prompt of a dataset of texts; " + dataset.path +
                         " holds patching pairs: leave out --atlas, or give a file of texts.");
    const auto model = ModelOpener::open(request.modelDir);
    DatasetRequest experiment;
    experiment.ablation =
        request.intervene.ablateMode == "mean" ? InterventionKind::Mean : InterventionKind::Zero;
    experiment.dlaToken = request.lens.token;
    experiment.dlaWrong = request.lens.wrong;
    experiment.atlas = request.lens.atlas;
    const size_t prompts = dataset.prompts.size();
    size_t shown = prompts + 1;
    const DatasetResult result =
        runDatasetExperiment(*model, dataset, experiment, [&](double fraction) {
            const size_t done = std::min(prompts, size_t(fraction * double(prompts)));
            if (done != shown) {
                m_err << "\rdataset: " << done << " / " << prompts << " prompts" << std::flush;
                shown = done;
            }
            return true;
        });
    m_err << "\rdataset: " << prompts << " / " << prompts << " prompts\n";
    for (const std::string &skipped : result.skipped)
        m_err << "warning: left out " << skipped << "\n";
    print(result, prompts);
    if (!request.exportDir.empty()) {
        DatasetExport::write(result, request.exportDir);
        m_out << DatasetExport::filesWritten() << " " << request.exportDir << "\n";
    }
    return 0;
}

void DatasetCommand::print(const DatasetResult &result, size_t prompts) const
{
    const RankingPrinter table(m_out);
    for (const DatasetMeasure &measure : result.measures) {
        m_out << "\n"
              << measure.name << ": " << measure.meaning << "\nMean over " << result.lines.size()
              << " of " << prompts << " prompts:\n";
        table.printTable(measure.mean);
        m_out << "Spread (the prompts' standard deviation):\n";
        table.printTable(measure.spread);
    }
}

} // namespace headlens
