// HeadTableFile: the .npy through NpyFile, the .csv with every float's 9 significant digits.
#include "io/headtablefile.h"

#include "io/atomicfile.h"
#include "io/npyfile.h"

#include <iomanip>
#include <sstream>

namespace headlens {

void HeadTableFile::write(const RowMatrix &table, const std::string &dir, const std::string &name)
{
    Tensor values(Shape{{"layer", table.rows()}, {"h", table.cols()}});
    values.matrix({}) = table;
    NpyFile::write(dir + "/" + name + ".npy", values);
    std::ostringstream csv;
    csv << "layer";
    for (Eigen::Index head = 0; head < table.cols(); ++head)
        csv << ",head " << head + 1;
    csv << "\n" << std::setprecision(9);
    for (Eigen::Index layer = 0; layer < table.rows(); ++layer) {
        csv << layer;
        for (Eigen::Index head = 0; head < table.cols(); ++head)
            csv << "," << table(layer, head);
        csv << "\n";
    }
    AtomicFile::write(dir + "/" + name + ".csv", csv.str()); // a killed run leaves no half table
}

} // namespace headlens
