// KeyTiledHead: each row's normaliser from a first sweep over the keys, its weights in a second.
#include "attention/keytiledhead.h"

#include "attention/alibi.h"
#include "linalg/matrixproduct.h"
#include "linalg/softmaxrow.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace headlens {

namespace {

/// 256 x 256 floats: a tile's scores and weights (512 KiB together) stay in a core's 1 MiB of
/// L2 with the tile's keys and values, and a block of keys is packed once for 256 queries.
constexpr int64_t kQueryRows = 256;
constexpr int64_t kKeyColumns = 256;

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

/// One head's queries `first` .. `first + rows - 1` (of this pass) and where its keys are.
struct RowTile
{
    const HeadPass &p;
    HeadRows::Matrix q, k, v;
    int64_t head;
    int64_t first, rows;

    int64_t query(int64_t r) const { return p.d.queryOffset + first + r; }

    /// Whether every query of the tile sees keys `key` .. `key + width - 1`: a rule's visible
    /// keys move with the query, so its first and last row tell.
    bool seesAll(int64_t key, int64_t width) const
    {
        if (!p.in.rule)
            return true;
        for (const int64_t i : {query(0), query(rows - 1)}) {
            const auto [lo, hi] = p.in.rule->keyRange(i, i + 1, p.d.nKv);
            if (key < lo || key + width > hi)
                return false;
        }
        return true;
    }

    /// The scores of the tile's queries against keys `key` .. `key + scores.cols() - 1`, as the
    /// row-block kernel makes them: the products, the scale, ALiBi's bias, and -inf at each
    /// query's hidden keys. The same call for the same tile gives the same bits each sweep.
    void score(int64_t key, RowMatrixRef scores) const
    {
        const int64_t width = scores.cols();
        assignProduct(productBackend(rows, width, k.cols()), scores, q.middleRows(first, rows),
                      k.middleRows(key, width), Operand::Transposed);
        if (p.scaled)
            scores *= p.factor;
        if (!p.alibiSlopes.empty()) {
            const double slope = p.alibiSlopes[size_t(head)];
            for (int64_t r = 0; r < rows; ++r)
                for (int64_t j = 0; j < width; ++j)
                    scores(r, j) += alibiBias(slope, query(r), key + j);
        }
        if (!p.in.rule)
            return;
        for (int64_t r = 0; r < rows; ++r) {
            const auto [lo, hi] = p.in.rule->keyRange(query(r), query(r) + 1, p.d.nKv);
            const int64_t before = std::clamp<int64_t>(lo - key, 0, width);
            const int64_t after = std::clamp<int64_t>(hi - key, before, width);
            scores.row(r).head(before).setConstant(kNegInf);
            scores.row(r).tail(width - after).setConstant(kNegInf);
        }
    }
};

} // namespace

bool keyTiledFits(const HeadPass &pass)
{
    const bool maskByRule = pass.in.rule || !pass.masked;
    return pass.observe && !pass.dropout && !pass.everyScore && maskByRule;
}

void attendKeyTiled(const HeadPass &pass, Eigen::Ref<RowMatrix> context, int64_t b, int64_t head)
{
    const ForwardDims &d = pass.d;
    RowMatrix scores(std::min(kQueryRows, d.n), kKeyColumns), weights(scores.rows(), kKeyColumns);
    Vector rowMax, logNormalizer;
    Eigen::VectorXd sum;
    for (int64_t first = 0; first < d.n; first += kQueryRows) {
        const RowTile tile{pass,
                           pass.in.q.matrix(b, head),
                           pass.in.k.matrix(b, head),
                           pass.in.v.matrix(b, head),
                           head,
                           first,
                           std::min(kQueryRows, d.n - first)};
        const int64_t rows = tile.rows;
        const auto [lo, hi] = pass.structure.keyRange(tile.query(0), tile.query(rows), d.nKv);
        auto widthAt = [&, hi = hi](int64_t key) { return std::min(kKeyColumns, hi - key); };

        // The first sweep: each row's largest score m and sum_j exp(s_j - m), rescaled as a
        // later tile raises m; in double, so the 32,768 terms of a long row keep their digits.
        rowMax.setConstant(rows, kNegInf);
        sum.setZero(rows);
        for (int64_t key = lo; key < hi; key += kKeyColumns) {
            auto s = scores.topLeftCorner(rows, widthAt(key));
            tile.score(key, s);
            for (int64_t r = 0; r < rows; ++r) {
                const float top = s.row(r).maxCoeff();
                if (std::isnan(top)) {
                    rowMax(r) = top;
                    sum(r) = std::numeric_limits<double>::quiet_NaN();
                    continue;
                }
                if (top == kNegInf)
                    continue; // every key of this tile hidden from the row
                if (top > rowMax(r)) {
                    sum(r) *= std::exp(double(rowMax(r)) - double(top));
                    rowMax(r) = top;
                }
                sum(r) +=
                    expShiftedRow(s.row(r).data(), s.row(r).data(), s.cols(), rowMax(r), true);
            }
        }
        // A row with no visible key (-inf, sum 0) gets -inf and zero weights, as softmaxRow
        // gives it; NaN or +inf anywhere in a row make the whole row NaN, as there.
        logNormalizer = sum.array().log().cast<float>();
        const Vector inverse = (1.0 / sum.array()).cast<float>();

        // The second sweep: the weights exp(s_j - m) / sum, shown to the observer and summed
        // into the context tile by tile.
        auto out = context.middleRows(first, rows);
        if (lo >= hi) {
            out.setZero();
            pass.observe({b, head, tile.query(0), weights.topLeftCorner(rows, 0),
                          scores.topLeftCorner(rows, 0), rowMax, logNormalizer, lo, hi, lo, true});
            continue;
        }
        for (int64_t key = lo; key < hi; key += kKeyColumns) {
            const int64_t width = widthAt(key);
            auto s = scores.topLeftCorner(rows, width);
            auto w = weights.topLeftCorner(rows, width);
            tile.score(key, s);
            for (int64_t r = 0; r < rows; ++r) {
                if (rowMax(r) == kNegInf) {
                    w.row(r).setZero();
                    continue;
                }
                expShiftedRow(s.row(r).data(), w.row(r).data(), width, rowMax(r), true);
                w.row(r) *= inverse(r);
            }
            pass.observe({b, head, tile.query(0), w, s, rowMax, logNormalizer, lo, hi, key,
                          key + width >= hi, tile.seesAll(key, width)});
            const auto values = tile.v.middleRows(key, width);
            const GemmBackend backend = productBackend(rows, values.cols(), width);
            if (key == lo)
                assignProduct(backend, out, w, values, Operand::AsIs);
            else
                addProduct(backend, out, w, values, Operand::AsIs);
        }
    }
}

} // namespace headlens
