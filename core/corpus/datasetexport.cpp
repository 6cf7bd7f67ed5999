// DatasetExport: the prompts' lines as CSV, the tensors through NpyFile and HeadTableFile.
#include "corpus/datasetexport.h"

#include "io/atomicfile.h"
#include "io/headtablefile.h"
#include "io/npyfile.h"

#include <sstream>

namespace headlens {

void DatasetExport::write(const DatasetResult &result, const std::string &dir)
{
    AtomicFile::createFolder(dir);
    std::ostringstream lines;
    lines << "prompt,line\n";
    for (size_t p = 0; p < result.lines.size(); ++p)
        lines << p << "," << result.lines[p] << "\n";
    AtomicFile::write(dir + "/dataset_prompts.csv", lines.str());
    for (const DatasetMeasure &measure : result.measures) {
        NpyFile::write(dir + "/dataset_" + measure.name + ".npy", measure.perPrompt);
        HeadTableFile::write(measure.mean, dir, "dataset_" + measure.name + "_mean");
        HeadTableFile::write(measure.spread, dir, "dataset_" + measure.name + "_spread");
    }
    if (!result.headOutputMeans.isEmpty())
        NpyFile::write(dir + "/dataset_head_output_means.npy", result.headOutputMeans);
}

std::string DatasetExport::filesWritten()
{
    return "Wrote dataset_prompts.csv and, per analysis, dataset_NAME.npy (prompts, layers, "
           "heads), dataset_NAME_mean and dataset_NAME_spread (.npy, .csv) to";
}

} // namespace headlens
