// CellArithmetic: reads one cell's chain of numbers out of the trace and redoes the last sum.
#include "attention/cellarithmetic.h"

#include "attention/stepdescriptions.h"
#include "linalg/softmaxrow.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace headlens {

namespace {

std::vector<float> rowOf(const Tensor &t, std::initializer_list<int64_t> leading, int64_t row)
{
    const ConstRowMatrixMap m = t.matrix(leading);
    std::vector<float> values(size_t(m.cols()));
    for (Eigen::Index j = 0; j < m.cols(); ++j)
        values[size_t(j)] = m(row, j);
    return values;
}

/// The row's exps and sum in double through expShiftedRow, the softmax's own exp, so what the
/// pipeline shows is the arithmetic the trace ran, with more digits.
void fillSoftmax(CellArithmetic &c)
{
    const double negInf = -std::numeric_limits<double>::infinity();
    std::vector<double> row(c.row.size());
    for (size_t j = 0; j < c.row.size(); ++j)
        row[j] = c.rowMasked[j] ? negInf : double(c.row[j]);
    c.rowMax = float(*std::max_element(row.begin(), row.end()));
    c.rowExp.assign(c.row.size(), 0.0);
    c.rowExpSum = 0.0;
    if (c.rowMax == float(negInf))
        return; // every key masked: the trace sets the whole row to 0
    c.rowExpSum = expShiftedRow(row.data(), c.rowExp.data(), int64_t(row.size()), c.rowMax, true);
    c.recomputedWeight = c.rowExp[size_t(c.key)] / c.rowExpSum;
}

} // namespace

CellArithmetic explainCell(const Trace &trace, int64_t b, int64_t head, int64_t query, int64_t key)
{
    assert(b < trace.batch() && head < trace.heads() && query < trace.queryLength() &&
           key < trace.keyLength());
    CellArithmetic c;
    c.batch = b;
    c.head = head;
    c.query = query;
    c.key = key;
    c.kvHead = trace.config.kvHeadOf(int(head));
    c.q = rowOf(trace.tensor(StepDescriptions::scoredQueryHeads(trace.config)), {b, head}, query);
    c.k = rowOf(trace.tensor(StepDescriptions::scoredKeyHeads(trace.config)), {b, c.kvHead}, key);
    c.products.resize(c.q.size());
    for (size_t j = 0; j < c.q.size(); ++j) {
        c.products[j] = c.q[j] * c.k[j];
        c.dot += double(c.q[j]) * double(c.k[j]);
    }
    c.rawScore = trace.tensor(keys::scoresRaw).at({b, head, query, key});
    c.scaleFactor = trace.config.scaleFactor();
    if (trace.hasTensor(keys::alibiBias))
        c.positionBias = trace.tensor(keys::alibiBias).at({head, query, key});
    c.scaledScore = trace.tensor(keys::scores).at({b, head, query, key});
    const std::vector<float> maskRow = rowOf(trace.tensor(keys::mask), {b}, query);
    c.rowMasked.resize(maskRow.size());
    for (size_t j = 0; j < maskRow.size(); ++j)
        c.rowMasked[j] = maskRow[j] != 0.0f;
    c.masked = c.rowMasked[size_t(key)];
    c.row = rowOf(trace.tensor(keys::maskedScores), {b, head}, query);
    fillSoftmax(c);
    c.softmaxWeight = trace.tensor(keys::softmax).at({b, head, query, key});
    c.weight = trace.tensor(keys::attentionWeights).at({b, head, query, key});
    return c;
}

} // namespace headlens
