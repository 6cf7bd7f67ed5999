// CorpusExport: the CSV text, and the arrays through NpyFile.
#include "corpus/corpusexport.h"

#include "io/atomicfile.h"
#include "io/npyfile.h"
#include "util/inputerror.h"

#include <cmath>
#include <sstream>

namespace headlens {
namespace {

void field(std::ostream &out, double value)
{
    out << ',';
    if (!std::isnan(value))
        out << value;
}

Tensor tensorOf(const Eigen::MatrixXd &matrix, const char *rows, const char *cols)
{
    Tensor tensor(Shape{{rows, matrix.rows()}, {cols, matrix.cols()}});
    tensor.matrix({}) = matrix.cast<float>();
    return tensor;
}

} // namespace

std::string CorpusExport::csv(const CorpusSummary &summary)
{
    std::ostringstream out;
    out.precision(9);
    out << "layer,head,entropy,mean_distance,previous_token,first_token,diagonal,max_weight,"
           "sep_share,punctuation_share,induction,map_x,map_y\n";
    for (int layer = 0; layer < summary.layers; ++layer)
        for (int head = 0; head < summary.heads; ++head) {
            const int index = summary.index(layer, head);
            const HeadStats &stats = summary.stats.at(size_t(index));
            out << layer << ',' << head + 1;
            for (double value : {stats.entropy, stats.meanDistance, stats.previousToken,
                                 stats.firstToken, stats.diagonal, stats.maxWeight, stats.sepShare,
                                 stats.punctuationShare, summary.induction.at(size_t(index)),
                                 summary.map(index, 0), summary.map(index, 1)})
                field(out, value);
            out << '\n';
        }
    return out.str();
}

void CorpusExport::write(const CorpusSummary &summary, const std::string &dir)
{
    AtomicFile::createFolder(dir);
    AtomicFile::write(dir + "/corpus_heads.csv", csv(summary));
    NpyFile::write(dir + "/corpus_distances.npy", tensorOf(summary.distances, "head", "head"));
    NpyFile::write(dir + "/corpus_map.npy", tensorOf(summary.map, "head", "xy"));
}

} // namespace headlens
