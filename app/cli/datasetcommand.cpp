// DatasetCommand: the dataset's prompts through the model, then a table of means and spreads.
#include "datasetcommand.h"

#include "rankingprinter.h"

#include "corpus/datasetexperiment.h"
#include "io/atomicfile.h"
#include "io/npyfile.h"
#include "model/modelopener.h"
#include "util/inputerror.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

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
    const auto model = ModelOpener::open(request.modelDir);
    DatasetRequest experiment;
    experiment.ablation =
        request.intervene.ablateMode == "mean" ? InterventionKind::Mean : InterventionKind::Zero;
    experiment.dlaToken = request.lens.token;
    experiment.dlaWrong = request.lens.wrong;
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
        write(result, request.exportDir);
        m_out << "Wrote dataset_prompts.csv and, per analysis, dataset_NAME.npy (prompts, "
                 "layers, heads), dataset_NAME_mean and dataset_NAME_spread (.npy, .csv) to "
              << request.exportDir << "\n";
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

void DatasetCommand::write(const DatasetResult &result, const std::string &dir)
{
    AtomicFile::createFolder(dir);
    std::ostringstream lines;
    lines << "prompt,line\n";
    for (size_t p = 0; p < result.lines.size(); ++p)
        lines << p << "," << result.lines[p] << "\n";
    AtomicFile::write(dir + "/dataset_prompts.csv", lines.str());
    for (const DatasetMeasure &measure : result.measures) {
        NpyFile::write(dir + "/dataset_" + measure.name + ".npy", measure.perPrompt);
        RankingPrinter::write(measure.mean, dir, "dataset_" + measure.name + "_mean");
        RankingPrinter::write(measure.spread, dir, "dataset_" + measure.name + "_spread");
    }
    if (!result.headOutputMeans.isEmpty())
        NpyFile::write(dir + "/dataset_head_output_means.npy", result.headOutputMeans);
}

} // namespace headlens
