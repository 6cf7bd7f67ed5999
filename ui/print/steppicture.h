// StepPicture: the panel that teaches a step (split & concat, one cell, W_O), drawn for paper.
#pragma once

#include "print/printsource.h"

#include <QRectF>

#include <memory>
#include <optional>

class QCPPainter;

namespace headlens {

class OutputProjectionPanel;
class SplitBarWidget;

/// The pipeline view's own panels, set up off screen and painted into a page: the tokens and
/// their ids as a table, the split bar
/// (one token's vector and its head rows, both layouts at once), the one-cell arithmetic (the
/// lines leading to this step and its table) and the output projection (the sum of head shares,
/// the bars of what each head adds, W_O with its head blocks). Steps without such a panel draw
/// nothing. Needs a QApplication.
class StepPicture
{
public:
    enum class Kind
    {
        None,
        Tokens,
        Split,
        Concat,
        Cell,
        Projection
    };
    static Kind kindOf(StepKind step);

    StepPicture(PrintSource source, double points);
    ~StepPicture();

    /// The size the picture of `step` takes at `room`'s width (its height may be more than
    /// `room`'s: a table of numbers cannot shrink); empty for Kind::None.
    QSizeF sizeIn(const TraceStep &step, const QSizeF &room);
    void paint(QCPPainter &painter, const TraceStep &step, const QRectF &rect);

private:
    void paintKind(QCPPainter &painter, Kind kind, const TraceStep &step, const QRectF &rect);
    int cellParts(StepKind step) const;
    QString cellHtml(StepKind step, const QSizeF &room) const;
    QString tokensHtml(const QSizeF &room) const;
    double splitHeight() const;
    void paintSplit(QCPPainter &painter, Kind kind, double progress, const QRectF &rect);
    struct ProjectionLayout
    {
        QRectF bars, weights; ///< weights empty while W_O is not known
    };
    void ensureProjection();
    void paintProjection(QCPPainter &painter, const QRectF &rect);
    ProjectionLayout projectionLayout(double width, double top) const;

    PrintSource m_source;
    double m_points;
    std::unique_ptr<SplitBarWidget> m_bar;
    std::unique_ptr<OutputProjectionPanel> m_projection;
    /// The one-cell table sizeIn last chose: for `step` in `room`, `height` tall.
    struct LaidCell
    {
        StepKind step;
        QSizeF room;
        double height;
        QString html;
    };
    std::optional<LaidCell> m_laidCell;
};

} // namespace headlens
