// drawnheatmap.h: what a HeatmapPlot shows, read back for the drawing tests: the cells of its
// colour map, the colour of each cell in the rendered picture, and a max-pool written apart from
// the product's so that a wrong pooling cannot agree with itself.
#pragma once

#include "plot/colormaps.h"
#include "plot/heatmapplot.h"
#include "tensor/tensor.h"

#include <qcustomplot.h>

#include <QByteArray>
#include <QImage>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace headlens::test {

/// The one colour map a HeatmapPlot draws, or nullptr.
inline QCPColorMap *colorMapOf(QCustomPlot &plot)
{
    for (int i = 0; i < plot.plottableCount(); ++i) {
        if (auto *map = qobject_cast<QCPColorMap *>(plot.plottable(i)))
            return map;
    }
    return nullptr;
}

/// The values the plot's colour map holds, as (rows = queries, cols = keys) of the picture:
/// the pooled size when the plot pools. Row 0 is the first query.
inline RowMatrix drawnCells(QCustomPlot &plot)
{
    QCPColorMap *map = colorMapOf(plot);
    if (!map)
        return {};
    QCPColorMapData *data = map->data();
    RowMatrix cells(data->valueSize(), data->keySize());
    for (int i = 0; i < data->valueSize(); ++i) {
        for (int j = 0; j < data->keySize(); ++j)
            cells(i, j) = float(data->cell(j, i));
    }
    return cells;
}

/// Blocks of f x f cells, f = ceil(size / maxCells) per axis, become their largest unmasked
/// value (NaN when the whole block is masked); a plain loop, on purpose not MaxPool.
inline RowMatrix referenceMaxPool(const RowMatrix &values, int maxCells)
{
    auto factor = [maxCells](Eigen::Index size) {
        return maxCells > 0 && size > maxCells ? int((size + maxCells - 1) / maxCells) : 1;
    };
    const int fr = factor(values.rows());
    const int fc = factor(values.cols());
    RowMatrix pooled((values.rows() + fr - 1) / fr, (values.cols() + fc - 1) / fc);
    for (Eigen::Index pi = 0; pi < pooled.rows(); ++pi) {
        for (Eigen::Index pj = 0; pj < pooled.cols(); ++pj) {
            float best = std::numeric_limits<float>::quiet_NaN();
            for (Eigen::Index i = pi * fr; i < std::min<Eigen::Index>((pi + 1) * fr, values.rows());
                 ++i) {
                for (Eigen::Index j = pj * fc;
                     j < std::min<Eigen::Index>((pj + 1) * fc, values.cols()); ++j) {
                    const float v = values(i, j);
                    if (!std::isnan(v) && (std::isnan(best) || v > best))
                        best = v;
                }
            }
            pooled(pi, pj) = best;
        }
    }
    return pooled;
}

/// The matrices of tensor `t` for sequence `b` as a person reads them off its axes' names: one
/// per head when it has an "h" or "h_kv" axis, rows and columns from the two axes left besides
/// "b" (one row when a single axis is left), -inf (a masked score) as NaN. Element by element
/// through the C-order strides, on purpose not TensorSlicer.
inline std::vector<RowMatrix> referenceSlices(const Tensor &t, int b)
{
    const Shape &shape = t.shape();
    int batchAxis = -1, headAxis = -1;
    std::vector<int> rest;
    for (int a = 0; a < shape.rank(); ++a) {
        if (shape.name(a) == "b")
            batchAxis = a;
        else if (shape.name(a) == "h" || shape.name(a) == "h_kv")
            headAxis = a;
        else
            rest.push_back(a);
    }
    std::vector<int64_t> strides(size_t(shape.rank()), 1);
    for (int a = shape.rank() - 2; a >= 0; --a)
        strides[size_t(a)] = strides[size_t(a) + 1] * shape.size(a + 1);
    const int rowAxis = rest.size() == 2 ? rest.front() : -1;
    const int colAxis = rest.back();
    const auto offset = [&](int axis, int64_t index) {
        return axis >= 0 ? index * strides[size_t(axis)] : 0;
    };
    std::vector<RowMatrix> slices;
    for (int64_t h = 0; h < (headAxis >= 0 ? shape.size(headAxis) : 1); ++h) {
        RowMatrix m(rowAxis >= 0 ? shape.size(rowAxis) : 1, shape.size(colAxis));
        for (Eigen::Index i = 0; i < m.rows(); ++i)
            for (Eigen::Index j = 0; j < m.cols(); ++j) {
                const float v = t.data()[offset(batchAxis, b) + offset(headAxis, h) +
                                         offset(rowAxis, i) + offset(colAxis, j)];
                m(i, j) = std::isinf(v) ? std::numeric_limits<float>::quiet_NaN() : v;
            }
        slices.push_back(std::move(m));
    }
    return slices;
}

/// Empty when both matrices have one size and every cell agrees within `tolerance` (NaN, a
/// masked cell, only matches NaN); otherwise the first cell that differs, with both values.
inline QByteArray cellsMismatch(const RowMatrix &drawn, const RowMatrix &expected,
                                double tolerance = 0.0)
{
    if (drawn.rows() != expected.rows() || drawn.cols() != expected.cols())
        return "drawn " + QByteArray::number(qint64(drawn.rows())) + " x " +
               QByteArray::number(qint64(drawn.cols())) + " cells, expected " +
               QByteArray::number(qint64(expected.rows())) + " x " +
               QByteArray::number(qint64(expected.cols()));
    for (Eigen::Index i = 0; i < drawn.rows(); ++i) {
        for (Eigen::Index j = 0; j < drawn.cols(); ++j) {
            const float d = drawn(i, j), e = expected(i, j);
            const bool same =
                std::isnan(e) ? std::isnan(d) : !std::isnan(d) && std::abs(d - e) <= tolerance;
            if (!same)
                return "cell (" + QByteArray::number(qint64(i)) + ", " +
                       QByteArray::number(qint64(j)) + "): drawn " +
                       QByteArray::number(double(d), 'g', 9) + ", expected " +
                       QByteArray::number(double(e), 'g', 9);
        }
    }
    return {};
}

/// The colour a person should see for `value` on a colour scale `range` of `map`; a masked cell
/// (NaN) has the map's mask colour. Uses the gradient as Colormaps defines it, not the plot's.
inline QRgb expectedColor(Colormap map, double value, std::pair<double, double> range)
{
    if (std::isnan(value))
        return Colormaps::maskColor(map).rgb();
    QCPColorGradient gradient = Colormaps::gradient(map);
    return gradient.color(value, QCPRange(range.first, range.second));
}

/// Whether two colours read alike: each channel within 2 (anti-aliasing and rounding).
inline bool sameColour(QRgb seen, QRgb want)
{
    return std::abs(qRed(seen) - qRed(want)) <= 2 && std::abs(qGreen(seen) - qGreen(want)) <= 2 &&
           std::abs(qBlue(seen) - qBlue(want)) <= 2;
}

/// The plot rendered as the screen shows it (what QWidget::grab gives after a full replot).
inline QImage renderedPicture(QCustomPlot &plot)
{
    plot.replot(QCustomPlot::rpImmediateRefresh);
    return plot.grab().toImage().convertToFormat(QImage::Format_RGB32);
}

/// The coordinate at which to read a cell centred at `centre` (cells `count` over `centres`, the
/// range of their centres) on an axis showing `axis`: the centre itself, unless the cell
/// reaches past the axis. That happens to the last cell of a pooled axis that the pooling
/// factor does not divide (100 keys in blocks of 3: the last block holds only key 99, centred
/// at 100, off the plot); then the middle of the part that shows.
inline double visibleCellMiddle(double centre, const QCPRange &centres, int count,
                                const QCPRange &axis)
{
    const double half = count > 1 ? centres.size() / (count - 1) / 2.0 : 0.5;
    if (centre - half >= axis.lower && centre + half <= axis.upper)
        return centre;
    return (std::max(centre - half, axis.lower) + std::min(centre + half, axis.upper)) / 2.0;
}

/// Where a person sees drawn cell (row i, column j) of `plot`: the middle of the part of it that
/// shows (visibleCellMiddle), in the plot's widget pixels. Precondition: the plot has a colour
/// map.
inline QPointF cellCentre(QCustomPlot &plot, int i, int j)
{
    QCPColorMapData *data = colorMapOf(plot)->data();
    double key = 0.0, value = 0.0;
    data->cellToCoord(j, i, &key, &value);
    key = visibleCellMiddle(key, data->keyRange(), data->keySize(), plot.xAxis->range());
    value = visibleCellMiddle(value, data->valueRange(), data->valueSize(), plot.yAxis->range());
    return {plot.xAxis->coordToPixel(key), plot.yAxis->coordToPixel(value)};
}

/// Reads the picture at the centre of every drawn cell and compares its colour with
/// `colour` of `expected` (the matrix the plot should draw, pooled as drawn). Empty when every
/// cell has its colour (each channel within 2); otherwise the first cell that does not. Cells
/// narrower than 3 pixels cannot be read reliably: that is reported, so a test has to give its
/// plot room instead of passing without looking.
template <typename Colour>
QByteArray pictureMismatchOf(QCustomPlot &plot, const RowMatrix &expected, Colour colour)
{
    const QImage image = renderedPicture(plot);
    QCPColorMap *colorMap = colorMapOf(plot);
    if (!colorMap)
        return "the plot has no colour map";
    QCPColorMapData *data = colorMap->data();
    if (data->valueSize() != expected.rows() || data->keySize() != expected.cols())
        return "drawn " + QByteArray::number(data->valueSize()) + " x " +
               QByteArray::number(data->keySize()) + " cells, expected " +
               QByteArray::number(qint64(expected.rows())) + " x " +
               QByteArray::number(qint64(expected.cols()));
    const double dpr = image.devicePixelRatio();
    const double cellWidth = plot.axisRect()->width() / double(data->keySize());
    const double cellHeight = plot.axisRect()->height() / double(data->valueSize());
    if (std::min(cellWidth, cellHeight) < 3.0)
        return "cells are " + QByteArray::number(cellWidth, 'f', 1) + " x " +
               QByteArray::number(cellHeight, 'f', 1) +
               " px: too small to read; make the plot larger";
    for (int i = 0; i < data->valueSize(); ++i) {
        for (int j = 0; j < data->keySize(); ++j) {
            const QPointF centre = cellCentre(plot, i, j);
            const QPoint at(int(std::floor(centre.x() * dpr)), int(std::floor(centre.y() * dpr)));
            if (!image.rect().contains(at))
                return "cell (" + QByteArray::number(i) + ", " + QByteArray::number(j) +
                       ") lies outside the picture";
            const QRgb seen = image.pixel(at);
            const QRgb want = colour(double(expected(i, j)));
            if (!sameColour(seen, want))
                return "cell (" + QByteArray::number(i) + ", " + QByteArray::number(j) +
                       ") of value " + QByteArray::number(double(expected(i, j)), 'g', 6) +
                       " is drawn " + QColor(seen).name().toLatin1() + ", expected " +
                       QColor(want).name().toLatin1();
        }
    }
    return {};
}

/// Whether the picture shows expectedColor of `expected` on `range` of `map` in each cell
/// (pictureMismatchOf).
inline QByteArray pictureMismatch(QCustomPlot &plot, const RowMatrix &expected, Colormap map,
                                  std::pair<double, double> range)
{
    return pictureMismatchOf(plot, expected,
                             [&](double value) { return expectedColor(map, value, range); });
}

/// The same for a plot with a gradient of its own (a diverging map), on `range`.
inline QByteArray pictureMismatch(QCustomPlot &plot, const RowMatrix &expected,
                                  QCPColorGradient gradient, std::pair<double, double> range)
{
    return pictureMismatchOf(plot, expected, [&](double value) {
        return gradient.color(value, QCPRange(range.first, range.second));
    });
}

/// The smallest and largest unmasked value, computed here (a per-head colour scale's range).
inline std::pair<double, double> unmaskedRange(const RowMatrix &values)
{
    double lower = INFINITY, upper = -INFINITY;
    for (Eigen::Index i = 0; i < values.size(); ++i) {
        const float v = values.data()[i];
        if (!std::isnan(v)) {
            lower = std::min(lower, double(v));
            upper = std::max(upper, double(v));
        }
    }
    return {lower, upper};
}

/// The largest weight of the rows with two or more weights above zero (NaN, masked, is not):
/// where the default colour scale ends before rounding. A plain loop, apart from ColorRange's.
inline double largestInformativeWeight(const RowMatrix &weights)
{
    double largest = 0.0;
    for (Eigen::Index i = 0; i < weights.rows(); ++i) {
        std::vector<float> above;
        for (Eigen::Index j = 0; j < weights.cols(); ++j)
            if (weights(i, j) > 0.0f)
                above.push_back(weights(i, j));
        if (above.size() >= 2)
            largest = std::max(largest, double(*std::max_element(above.begin(), above.end())));
    }
    return largest;
}

} // namespace headlens::test
