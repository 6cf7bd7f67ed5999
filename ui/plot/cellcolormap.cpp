// CellColorMap: cell rectangles laid out exactly where QCPColorMap would put its image's pixels.
#include "plot/cellcolormap.h"

namespace headlens {

CellColorMap::CellColorMap(QCPAxis *keyAxis, QCPAxis *valueAxis) : QCPColorMap(keyAxis, valueAxis)
{}

void CellColorMap::draw(QCPPainter *painter)
{
    const bool vector = painter->modes().testFlag(QCPPainter::pmVectorized);
    const qint64 cells = qint64(mMapData->keySize()) * mMapData->valueSize();
    if (!vector || cells > kMaxVectorCells || mInterpolate || mMapData->isEmpty() || !mKeyAxis ||
        !mValueAxis)
        return QCPColorMap::draw(painter);
    drawCells(painter);
}

// A cell spans half the distance to its neighbours' centres on each side (tight boundary off,
// as HeatmapPlot sets it); a single cell spans the data range. Each rectangle reaches a little
// into the next one, so PDF viewers that smooth edges show no hairline seams between cells.
void CellColorMap::drawCells(QCPPainter *painter)
{
    QCPColorMapData &data = *mMapData; // cell() is not const in QCustomPlot 2.1
    const int keys = data.keySize(), values = data.valueSize();
    const QCPRange keyRange = data.keyRange(), valueRange = data.valueRange();
    const double halfKey = keys > 1 ? keyRange.size() / (keys - 1) / 2.0 : keyRange.size() / 2.0;
    const double halfValue =
        values > 1 ? valueRange.size() / (values - 1) / 2.0 : valueRange.size() / 2.0;
    const double seam = 0.35; // pixels of overlap, under a tenth of a point
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    painter->setPen(Qt::NoPen);
    for (int v = 0; v < values; ++v) {
        for (int k = 0; k < keys; ++k) {
            double key = 0.0, value = 0.0;
            data.cellToCoord(k, v, &key, &value);
            // One cell along an axis spans its range (cellToCoord divides by size - 1).
            key = keys > 1 ? key : keyRange.center();
            value = values > 1 ? value : valueRange.center();
            const QRectF cell = QRectF(coordsToPixels(key - halfKey, value - halfValue),
                                       coordsToPixels(key + halfKey, value + halfValue))
                                    .normalized();
            const double level = data.cell(k, v);
            QRgb rgb = 0;
            mGradient.colorize(&level, mDataRange, &rgb, 1, 1,
                               mDataScaleType == QCPAxis::stLogarithmic);
            painter->setBrush(QColor::fromRgba(rgb));
            painter->drawRect(
                cell.adjusted(0, 0, k + 1 < keys ? seam : 0.0, v + 1 < values ? seam : 0.0));
        }
    }
    painter->restore();
}

} // namespace headlens
