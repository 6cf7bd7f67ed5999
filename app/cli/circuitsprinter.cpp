// CircuitsPrinter: a few lines of each circuit for the terminal; the maps whole in the files.
#include "circuitsprinter.h"

#include "io/atomicfile.h"
#include "io/csvfield.h"
#include "io/npyfile.h"
#include "tensor/tensor.h"

#include <algorithm>
#include <iomanip>
#include <numeric>
#include <sstream>

namespace headlens {

namespace {

constexpr size_t kPrintedValues = 8; ///< of each circuit's singular values
constexpr size_t kPrintedPairs = 10; ///< of the QK circuit's token pairs

void printValues(std::ostream &out, const char *name, const std::vector<double> &values)
{
    out << "  " << name << " singular values:";
    for (size_t k = 0; k < std::min(values.size(), kPrintedValues); ++k)
        out << " " << values[k];
    if (values.size() > kPrintedValues)
        out << " ... (" << values.size() << ")";
    out << "\n";
}

void writeMatrix(const RowMatrix &values, const std::string &path)
{
    Tensor t(Shape{{"row", values.rows()}, {"col", values.cols()}});
    t.matrix({}) = values;
    NpyFile::write(path, t);
}

} // namespace

void CircuitsPrinter::print(const HeadCircuits &c, const std::vector<int> &textIds) const
{
    const HeadCircuit &circuit = c.circuit;
    const auto label = [&c](Eigen::Index t) { return "[" + c.labels.at(size_t(t)) + "]"; };
    m_out << "\nCircuits of head " << c.layer << "." << c.head + 1
          << " (Elhage et al. 2021), biases left out, on " << c.tokens.size()
          << " tokens (the text's, then the stories')\n";
    if (c.sharedBy > 1)
        m_out << "  reads key/value head " << c.keyValueHead + 1 << ", shared by " << c.sharedBy
              << " query heads (grouped-query attention): their QK and OV circuits share W_K and "
                 "W_V\n";
    if (c.rotary)
        m_out << "  RoPE rotates q and k by their positions: this QK circuit is the content part "
                 "alone\n";
    m_out << std::setprecision(4);
    printValues(m_out, "QK", circuit.qkSingularValues);
    printValues(m_out, "OV", circuit.ovSingularValues);
    m_out << "  copying score (sum Re eigenvalue / sum |eigenvalue| of E W_OV U^T): "
          << circuit.copyingScore << "\n";
    const RowMatrix &qk = circuit.qkTokens;
    std::vector<Eigen::Index> order(size_t(qk.size()));
    std::iota(order.begin(), order.end(), 0);
    const size_t top = std::min(order.size(), kPrintedPairs);
    std::partial_sort(
        order.begin(), order.begin() + long(top), order.end(),
        [&qk](Eigen::Index a, Eigen::Index b) { return qk.data()[a] > qk.data()[b]; });
    m_out << "  QK: the query -> key token pairs it scores highest:";
    for (size_t k = 0; k < top; ++k)
        m_out << "  " << label(order[k] / qk.cols()) << "->" << label(order[k] % qk.cols()) << " "
              << qk.data()[order[k]];
    m_out << "\n  OV: attending to each token of the text raises most:";
    const RowMatrix &ov = circuit.ovTokens;
    for (Eigen::Index s = 0; s < ov.rows(); ++s) {
        if (std::find(textIds.begin(), textIds.end(), c.tokens[size_t(s)]) == textIds.end())
            continue;
        Eigen::Index raised = 0;
        ov.row(s).maxCoeff(&raised);
        m_out << "  " << label(s) << "->" << label(raised);
    }
    m_out << "\n" << std::defaultfloat;
}

void CircuitsPrinter::write(const HeadCircuits &c, const std::string &dir)
{
    writeMatrix(c.circuit.qkTokens, dir + "/circuits_qk.npy");
    writeMatrix(c.circuit.ovTokens, dir + "/circuits_ov.npy");
    std::ostringstream tokens;
    tokens << "index,token_id,token\n";
    for (size_t t = 0; t < c.tokens.size(); ++t)
        tokens << t << "," << c.tokens[t] << "," << csvField(c.labels[t]) << "\n";
    AtomicFile::write(dir + "/circuits_tokens.csv", tokens.str());
    std::ostringstream values;
    values << "rank,qk,ov\n" << std::setprecision(9);
    const size_t count =
        std::max(c.circuit.qkSingularValues.size(), c.circuit.ovSingularValues.size());
    for (size_t k = 0; k < count; ++k)
        values << k + 1 << ","
               << (k < c.circuit.qkSingularValues.size() ? c.circuit.qkSingularValues[k] : 0.0)
               << ","
               << (k < c.circuit.ovSingularValues.size() ? c.circuit.ovSingularValues[k] : 0.0)
               << "\n";
    values << "copying_score," << c.circuit.copyingScore << ",\n";
    AtomicFile::write(dir + "/circuits_singular_values.csv", values.str());
}

} // namespace headlens
