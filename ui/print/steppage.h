// StepPage: one step of the pipeline laid out on paper, drawn without any widget's controls.
#pragma once

#include "print/printsource.h"

#include <QCoreApplication>
#include <QRectF>

#include <memory>

class QCPPainter;

namespace headlens {

class HeatmapSheet;
class StepPicture;
struct LaidOutPage;

/// The step's number and name, the shapes before and after with their axes, the shape diagram,
/// the formula, the PyTorch line, the sentence, its heatmaps (large enough to read the token
/// labels) and the picture that teaches it. Portrait areas stack the picture under the
/// heatmaps, in half the height at most (a one-cell table is cut to the rows that fit, and
/// takes down to a third when the heatmaps need the room); wide ones put it beside them.
/// Needs a QApplication.
class StepPage
{
    Q_DECLARE_TR_FUNCTIONS(StepPage)

public:
    /// `step` 0-based; `scale` multiplies every font (1: the handout's sizes).
    StepPage(PrintSource source, int step, double scale = 1.0);
    ~StepPage();

    /// "Step 6 of 14: Scores Q K^T"
    QString title() const;
    /// `laidOut`, when given, gets every block painted.
    void paint(QCPPainter &painter, const QRectF &rect, LaidOutPage *laidOut = nullptr);

private:
    double paintHeader(QCPPainter &painter, const QRectF &rect, LaidOutPage &laidOut) const;
    double paintCode(QCPPainter &painter, const QRectF &rect) const;
    void paintBody(QCPPainter &painter, const QRectF &rect, LaidOutPage &laidOut);
    /// Where the picture goes in `rect`, the body below the header.
    struct PicturePlace
    {
        QRectF area;          ///< its heading and the picture, as high as they fit
        QSizeF picture;       ///< the size the picture takes
        double heading = 0.0; ///< its heading's height
        bool wide = false;    ///< beside the heatmaps, not under them
    };
    /// `caption`: the room the sheet's caption takes above it.
    PicturePlace placePicture(const QRectF &rect, HeatmapSheet *sheet, double caption) const;
    double pictureShare(const QRectF &rect, HeatmapSheet *sheet, double caption) const;
    QString pictureHeading() const;
    QString tensorCaption() const;

    PrintSource m_source;
    int m_step;
    double m_scale;
    std::unique_ptr<StepPicture> m_picture;
};

} // namespace headlens
