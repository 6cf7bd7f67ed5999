// CellColorMap: a QCPColorMap that draws each cell as a filled rectangle into PDF and SVG files.
#pragma once

#include <qcustomplot.h>

namespace headlens {

/// On screen it is QCPColorMap (one image, fast). Painted vectorized (QCPPainter::pmVectorized:
/// PDF, SVG and the print layouts' PNGs), QCPColorMap embeds a bitmap at 3x the screen's
/// resolution; this map draws one rectangle per cell instead, so a printed heatmap stays sharp
/// at any zoom and its cells look the same in every format. Matrices of more than kMaxVectorCells
/// cells fall back to QCPColorMap's bitmap.
class CellColorMap : public QCPColorMap
{
    Q_OBJECT
public:
    static constexpr int kMaxVectorCells = 256 * 256;

    CellColorMap(QCPAxis *keyAxis, QCPAxis *valueAxis);

protected:
    void draw(QCPPainter *painter) override;

private:
    void drawCells(QCPPainter *painter);
};

} // namespace headlens
