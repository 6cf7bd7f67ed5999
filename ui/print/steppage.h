// StepPage: one step of the pipeline laid out on paper, drawn without any widget's controls.
#pragma once

#include "print/printsource.h"

#include <QCoreApplication>
#include <QRectF>

#include <memory>

class QCPPainter;

namespace headlens {

class StepPicture;

/// The step's number and name, the shapes before and after with their axes, the shape diagram,
/// the formula, the PyTorch line, the sentence, its heatmaps (large enough to read the token
/// labels) and the picture that teaches it. Portrait areas stack the picture under the
/// heatmaps; wide ones put it beside them. Needs a QApplication.
class StepPage
{
    Q_DECLARE_TR_FUNCTIONS(StepPage)

public:
    /// `step` 0-based; `scale` multiplies every font (1: the handout's sizes).
    StepPage(PrintSource source, int step, double scale = 1.0);
    ~StepPage();

    /// "Step 6 of 14: Scores Q K^T"
    QString title() const;
    void paint(QCPPainter &painter, const QRectF &rect);

private:
    double paintHeader(QCPPainter &painter, const QRectF &rect) const;
    double paintCode(QCPPainter &painter, const QRectF &rect) const;
    void paintBody(QCPPainter &painter, const QRectF &rect);
    QString pictureHeading() const;
    QString tensorCaption() const;

    PrintSource m_source;
    int m_step;
    double m_scale;
    std::unique_ptr<StepPicture> m_picture;
};

} // namespace headlens
