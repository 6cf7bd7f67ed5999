// TensorExporter: CSV written here, everything else by the core's io classes.
#include "export/tensorexporter.h"

#include "attention/tracejson.h"
#include "io/atomicfile.h"
#include "io/csvfield.h"
#include "views/tracereader.h"

#include <cmath>

namespace headlens {

void TensorExporter::writeNpyDirectory(const Trace &trace, const QString &directory)
{
    TraceJson::exportDirectory(trace, directory.toStdString());
}

void TensorExporter::writeWeightsCsv(const Trace &trace, int b, const QString &path)
{
    const QStringList queries = TraceReader::queryLabels(trace, b);
    const QStringList keys = TraceReader::keyLabels(trace, b);
    std::string csv = "head,query_index,query,key_index,key,weight,masked\n";
    for (int head = 0; head < trace.heads(); ++head) {
        const RowMatrix weights = TraceReader::weights(trace, b, head);
        const ConstRowMatrixMap raw = trace.tensor(keys::attentionWeights).matrix({b, head});
        for (int i = 0; i < weights.rows(); ++i) {
            for (int j = 0; j < weights.cols(); ++j) {
                csv += std::to_string(head) + "," + std::to_string(i) + "," +
                       csvField(queries.value(i).toStdString()) + "," + std::to_string(j) + "," +
                       csvField(keys.value(j).toStdString()) + "," +
                       QString::number(double(raw(i, j)), 'g', 9).toStdString() + "," +
                       (std::isnan(weights(i, j)) ? "1" : "0") + "\n";
            }
        }
    }
    AtomicFile::write(path.toStdString(), csv);
}

void TensorExporter::writeJsonSummary(const Trace &trace, const QString &path)
{
    AtomicFile::write(path.toStdString(), TraceJson::summary(trace));
}

} // namespace headlens
