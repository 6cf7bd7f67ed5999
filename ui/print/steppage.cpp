// StepPage: TextBlocks, a rendered ShapeDiagram, a HeatmapSheet and a StepPicture, top to bottom.
#include "print/steppage.h"

#include "pipeline/shapediagram.h"
#include "pipeline/steptext.h"
#include "print/heatmapsheet.h"
#include "print/sheetbuilder.h"
#include "print/steppicture.h"
#include "print/textblock.h"

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

void StepPage::paint(QCPPainter &painter, const QRectF &rect)
{
    const double top = paintHeader(painter, rect);
    paintBody(painter, QRectF(rect.left(), top, rect.width(), rect.bottom() - top));
}

// Title, shapes, shape diagram, formula and PyTorch, the sentence; returns where they end.
double StepPage::paintHeader(QCPPainter &painter, const QRectF &rect) const
{
    const Trace &trace = *m_source.trace;
    const TraceStep &step = trace.steps.at(size_t(m_step));
    double y = rect.top();
    const TextBlock heading("<b>" + TextBlock::plain(title()) + "</b>",
                            TextBlock::font(16 * m_scale), rect.width());
    heading.paint(painter, QPointF(rect.left(), y));
    y += heading.height() + 2.0;
    const TextBlock shapes(TextBlock::plain(StepText::shapes(trace, step)),
                           TextBlock::font(9.5 * m_scale), rect.width());
    shapes.paint(painter, QPointF(rect.left(), y));
    y += shapes.height() + 2.0;
    ShapeDiagram diagram;
    diagram.setFontScale(0.85 * m_scale);
    diagram.setStep(trace, step, false);
    diagram.resize(int(rect.width()), diagram.sizeHint().height());
    diagram.render(&painter, QPointF(rect.left(), y).toPoint(), QRegion(), QWidget::RenderFlags());
    y += diagram.height() + 2.0;
    y += paintCode(painter, QRectF(rect.left(), y, rect.width(), 0)) + kStepGap / 2;
    const TextBlock sentence(TextBlock::plain(QString::fromStdString(step.explanation)),
                             TextBlock::font(10.5 * m_scale), rect.width());
    sentence.paint(painter, QPointF(rect.left(), y));
    return y + sentence.height() + kStepGap;
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

// The heatmaps take what the picture leaves: beside them on wide areas, under them otherwise
// (right after them, so a sheet that is narrower than the page leaves no hole in the middle).
void StepPage::paintBody(QCPPainter &painter, const QRectF &rect)
{
    const Trace &trace = *m_source.trace;
    const TraceStep &step = trace.steps.at(size_t(m_step));
    const QString heading = pictureHeading();
    bool wide = rect.width() > rect.height() * 1.25;
    const QString bold = "<b>" + TextBlock::plain(heading) + "</b>";
    QRectF sheetArea = rect;
    QRectF pictureArea;
    double headingHeight = 0.0;
    if (!heading.isEmpty()) {
        // Beside the heatmaps on wide pages, unless it is too tall for that column.
        QSizeF picture;
        for (const bool side : {wide, false}) {
            wide = side;
            const double width = wide ? rect.width() * 0.4 : rect.width();
            headingHeight = TextBlock(bold, TextBlock::font(10 * m_scale), width).height();
            const double room = (wide ? rect.height() : rect.height() * 0.5) - headingHeight;
            picture = m_picture->sizeIn(step, QSizeF(width, room));
            if (picture.height() <= room)
                break;
        }
        pictureArea =
            QRectF(wide ? rect.right() - picture.width() : rect.left(), rect.top(), picture.width(),
                   std::min(headingHeight + 4.0 + picture.height(), rect.height()));
        if (wide)
            sheetArea.setRight(pictureArea.left() - 2 * kStepGap);
        else
            sheetArea.setBottom(rect.bottom() - pictureArea.height() - 2 * kStepGap);
    }
    double bottom = sheetArea.top();
    if (const auto key = SheetBuilder::stepTensor(trace, step)) {
        const TextBlock caption(tensorCaption(), TextBlock::font(9 * m_scale), sheetArea.width());
        caption.paint(painter, sheetArea.topLeft());
        sheetArea.setTop(sheetArea.top() + caption.height() + 4.0);
        HeatmapSheet sheet(SheetBuilder::tensor(trace, m_source.batch, *key, m_source.style),
                           m_source.style, 8.0 * m_scale);
        sheet.fitLabels(6.5 * m_scale, 9.0 * m_scale, sheetArea.size());
        bottom = sheet.paint(painter, sheetArea).bottom();
    }
    if (heading.isEmpty())
        return;
    if (!wide)
        pictureArea.moveTop(bottom + 2 * kStepGap);
    TextBlock(bold, TextBlock::font(10 * m_scale), pictureArea.width())
        .paint(painter, pictureArea.topLeft());
    pictureArea.setBottom(std::min(pictureArea.bottom(), rect.bottom()));
    m_picture->paint(painter, step, pictureArea.adjusted(0, headingHeight + 4.0, 0, 0));
}

} // namespace headlens
