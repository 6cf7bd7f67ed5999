// StepPage: TextBlocks, a rendered ShapeDiagram, a HeatmapSheet and a StepPicture, top to bottom.
#include "print/steppage.h"

#include "print/heatmapsheet.h"
#include "print/laidoutpage.h"
#include "print/sheetbuilder.h"
#include "print/steppicture.h"
#include "print/textblock.h"
#include "steps/shapediagram.h"
#include "steps/steptext.h"

#include <qcustomplot.h>

#include <QCoreApplication>

namespace headlens {

namespace {

constexpr double kStepGap = 8.0;

QString code(const std::string &text)
{
    return "<span style='font-family:monospace'>" + TextBlock::plain(QString::fromStdString(text)) +
           "</span>";
}

} // namespace

StepPage::StepPage(PrintSource source, int step, double scale)
    : m_source(std::move(source)), m_step(step), m_scale(scale)
{
    m_source.style.dark = false; // paper
    m_picture = std::make_unique<StepPicture>(m_source, 8.5 * m_scale);
}

StepPage::~StepPage() = default;

QString StepPage::title() const
{
    return tr("Step %1 of %2: %3")
        .arg(m_step + 1)
        .arg(m_source.trace->steps.size())
        .arg(QString::fromStdString(m_source.trace->steps.at(size_t(m_step)).title));
}

void StepPage::paint(QCPPainter &painter, const QRectF &rect, LaidOutPage *laidOut)
{
    LaidOutPage ignored;
    LaidOutPage &page = laidOut ? *laidOut : ignored;
    const double top = paintHeader(painter, rect, page);
    paintBody(painter, QRectF(rect.left(), top, rect.width(), rect.bottom() - top), page);
}

// Title, shapes, shape diagram, formula and PyTorch, the sentence; returns where they end.
double StepPage::paintHeader(QCPPainter &painter, const QRectF &rect, LaidOutPage &laidOut) const
{
    const Trace &trace = *m_source.trace;
    const TraceStep &step = trace.steps.at(size_t(m_step));
    double y = rect.top();
    const auto paintText = [&](const QString &what, const TextBlock &text) {
        text.paint(painter, QPointF(rect.left(), y));
        laidOut.addBlock(what, QRectF(rect.left(), y, rect.width(), text.height()));
        y += text.height();
    };
    paintText("heading", TextBlock("<b>" + TextBlock::plain(title()) + "</b>",
                                   TextBlock::font(16 * m_scale), rect.width()));
    y += 2.0;
    paintText("shapes", TextBlock(TextBlock::plain(StepText::shapes(trace, step)),
                                  TextBlock::font(9.5 * m_scale), rect.width()));
    y += 2.0;
    ShapeDiagram diagram;
    diagram.setFontScale(0.85 * m_scale);
    diagram.setStep(trace, step, false);
    diagram.resize(int(rect.width()), diagram.sizeHint().height());
    diagram.render(&painter, QPointF(rect.left(), y).toPoint(), QRegion(), QWidget::RenderFlags());
    laidOut.addBlock("shape diagram", QRectF(QPointF(rect.left(), y), QSizeF(diagram.size())));
    y += diagram.height() + 2.0;
    const double code = paintCode(painter, QRectF(rect.left(), y, rect.width(), 0));
    laidOut.addBlock("formula and PyTorch", QRectF(rect.left(), y, rect.width(), code));
    y += code + kStepGap / 2;
    paintText("sentence", TextBlock(TextBlock::plain(QString::fromStdString(step.explanation)),
                                    TextBlock::font(10.5 * m_scale), rect.width()));
    return y + kStepGap;
}

// The formula and the PyTorch line side by side; returns their height.
double StepPage::paintCode(QCPPainter &painter, const QRectF &rect) const
{
    const TraceStep &step = m_source.trace->steps.at(size_t(m_step));
    const double half = (rect.width() - kStepGap) / 2.0;
    const QFont font = TextBlock::font(9.5 * m_scale);
    const TextBlock formula(tr("<b>Formula</b>&nbsp;&nbsp;") + code(step.formula), font, half);
    const TextBlock pytorch(tr("<b>PyTorch</b>&nbsp;&nbsp;") + code(step.pytorch), font, half);
    formula.paint(painter, rect.topLeft());
    pytorch.paint(painter, rect.topLeft() + QPointF(half + kStepGap, 0));
    return std::max(formula.height(), pytorch.height());
}

QString StepPage::tensorCaption() const
{
    const Trace &trace = *m_source.trace;
    const auto key = SheetBuilder::stepTensor(trace, trace.steps.at(size_t(m_step)));
    if (!key)
        return QString();
    const TraceTensor *t = trace.find(*key);
    return QString("<b>%1</b> %2 — %3")
        .arg(TextBlock::plain(QString::fromStdString(t->name())),
             TextBlock::plain(QString::fromStdString(t->tensor.shape().toString())),
             TextBlock::plain(QString::fromStdString(t->meaning)));
}

QString StepPage::pictureHeading() const
{
    switch (StepPicture::kindOf(m_source.trace->steps.at(size_t(m_step)).kind)) {
    case StepPicture::Kind::Tokens:
        return tr("The tokens and their ids");
    case StepPicture::Kind::Split:
        return tr("Split into heads: where one token's numbers go");
    case StepPicture::Kind::Concat:
        return tr("Concatenation: one token's numbers from every head, back in one row");
    case StepPicture::Kind::Cell:
        return m_source.cell.picked ? tr("One cell worked out by hand (the cell you picked)")
                                    : tr("One cell worked out by hand (the strongest weight of "
                                         "head %1)")
                                          .arg(m_source.cell.head + 1);
    case StepPicture::Kind::Projection:
        return tr("The output projection, head by head");
    case StepPicture::Kind::None:
        break;
    }
    return QString();
}

// A one-cell table can be cut to fewer rows, heatmaps cannot be cut: under the heatmaps, its
// share of the page shrinks from a half to a third while the heatmaps' cells would be smaller
// than kReadableCell and grow with the room (16 heads of 64 tokens drew cells of 0.8 pixels
// beside half a page of table). Other pictures keep half.
double StepPage::pictureShare(const QRectF &rect, HeatmapSheet *sheet, double caption) const
{
    constexpr double kReadableCell = 2.0; // layout pixels: half a millimetre
    double share = 0.5;
    if (!sheet || StepPicture::kindOf(m_source.trace->steps.at(size_t(m_step)).kind) !=
                      StepPicture::Kind::Cell)
        return share;
    const auto cells = [&](double s) {
        return sheet->cellSizeIn(
            QSizeF(rect.width(), rect.height() * (1.0 - s) - caption - 2 * kStepGap));
    };
    // The largest share that gives the largest cells found: cells the width limits do not grow
    // with the height, and the arrangement changes in steps (two rows of 8, then three of 6).
    for (double smaller = share, cell = cells(share); smaller > 0.34 && cell < kReadableCell;) {
        smaller -= 0.04;
        const double larger = cells(smaller);
        if (larger > cell * 1.01) {
            share = smaller;
            cell = larger;
        }
    }
    return share;
}

// Beside the heatmaps on wide pages, unless it is too tall for that column; under them
// otherwise, in pictureShare() of the height at most.
StepPage::PicturePlace StepPage::placePicture(const QRectF &rect, HeatmapSheet *sheet,
                                              double caption) const
{
    const TraceStep &step = m_source.trace->steps.at(size_t(m_step));
    const QString bold = "<b>" + TextBlock::plain(pictureHeading()) + "</b>";
    PicturePlace at;
    for (const bool side : {rect.width() > rect.height() * 1.25, false}) {
        at.wide = side;
        const double width = at.wide ? rect.width() * 0.4 : rect.width();
        at.heading = TextBlock(bold, TextBlock::font(10 * m_scale), width).height();
        const double room =
            (at.wide ? rect.height() : rect.height() * pictureShare(rect, sheet, caption)) -
            at.heading;
        at.picture = m_picture->sizeIn(step, QSizeF(width, room));
        if (at.picture.height() <= room)
            break;
    }
    at.area =
        QRectF(at.wide ? rect.right() - at.picture.width() : rect.left(), rect.top(),
               at.picture.width(), std::min(at.heading + 4.0 + at.picture.height(), rect.height()));
    return at;
}

// The heatmaps take what the picture leaves: beside them on wide areas, under them otherwise
// (right after them, so a sheet that is narrower than the page leaves no hole in the middle).
void StepPage::paintBody(QCPPainter &painter, const QRectF &rect, LaidOutPage &laidOut)
{
    const Trace &trace = *m_source.trace;
    const TraceStep &step = trace.steps.at(size_t(m_step));
    const QString heading = pictureHeading();
    std::unique_ptr<HeatmapSheet> sheet;
    if (const auto key = SheetBuilder::stepTensor(trace, step))
        sheet = std::make_unique<HeatmapSheet>(
            SheetBuilder::tensor(trace, m_source.batch, *key, m_source.style), m_source.style,
            8.0 * m_scale);
    const auto caption = [&](double width) {
        return TextBlock(tensorCaption(), TextBlock::font(9 * m_scale), width);
    };
    PicturePlace at;
    QRectF sheetArea = rect;
    if (!heading.isEmpty()) {
        at = placePicture(rect, sheet.get(), sheet ? caption(rect.width()).height() + 4.0 : 0.0);
        if (at.wide)
            sheetArea.setRight(at.area.left() - 2 * kStepGap);
        else
            sheetArea.setBottom(rect.bottom() - at.area.height() - 2 * kStepGap);
    }
    double bottom = sheetArea.top();
    if (sheet) {
        const TextBlock text = caption(sheetArea.width());
        text.paint(painter, sheetArea.topLeft());
        laidOut.addBlock("caption",
                         QRectF(sheetArea.topLeft(), QSizeF(sheetArea.width(), text.height())));
        sheetArea.setTop(sheetArea.top() + text.height() + 4.0);
        sheet->fitLabels(6.5 * m_scale, 9.0 * m_scale, sheetArea.size());
        const QRectF drawn = sheet->paint(painter, sheetArea);
        laidOut.addSheet(*sheet, drawn);
        bottom = drawn.bottom();
    }
    if (heading.isEmpty())
        return;
    if (!at.wide)
        at.area.moveTop(bottom + 2 * kStepGap);
    TextBlock("<b>" + TextBlock::plain(heading) + "</b>", TextBlock::font(10 * m_scale),
              at.area.width())
        .paint(painter, at.area.topLeft());
    laidOut.addBlock("picture",
                     QRectF(at.area.topLeft(),
                            QSizeF(at.picture.width(), at.heading + 4.0 + at.picture.height())));
    at.area.setBottom(std::min(at.area.bottom(), rect.bottom()));
    m_picture->paint(painter, step, at.area.adjusted(0, at.heading + 4.0, 0, 0));
}

} // namespace headlens
