// AtlasPage: TextBlocks above and below one HeatmapSheet of the atlas.
#include "print/atlaspage.h"

#include "print/heatmapsheet.h"
#include "print/laidoutpage.h"
#include "print/sheetbuilder.h"
#include "print/textblock.h"

#include <qcustomplot.h>

#include <cmath>

namespace headlens {

namespace {

constexpr double kAtlasGap = 10.0;

} // namespace

AtlasPage::AtlasPage(std::shared_ptr<const HeadAtlas> atlas, QString model, PlotStyle style,
                     double scale)
    : m_atlas(std::move(atlas)), m_model(std::move(model)), m_style(style), m_scale(scale)
{
    m_style.dark = false; // paper
}

QString AtlasPage::title() const
{
    return tr("Head atlas of %1 (%2 layers × %3 heads)")
        .arg(m_model)
        .arg(m_atlas->layers)
        .arg(m_atlas->heads);
}

QString AtlasPage::introText() const
{
    const QString repeated =
        m_atlas->textRuns
            ? tr("%1 stretches of %2 tokens of the default stories, each twice (seed %3)")
            : tr("%1 runs of %2 random tokens, each twice (seed %3)");
    return tr("Every head scored by where it looks, each score a share of its attention from 0 "
              "to 1. <i>Previous token</i>, <i>duplicate token</i> and <i>induction</i> are "
              "measured on %1; the others on the text (%2 tokens). A cell names the head's "
              "type, its score furthest above chance when that stands out (“-”: none does), "
              "and is coloured by how far: (score − chance) / (1 − chance).")
        .arg(repeated.arg(m_atlas->repeatedRuns).arg(m_atlas->repeatedLength).arg(m_atlas->seed))
        .arg(m_atlas->textTokens);
}

QString AtlasPage::legendText() const
{
    QStringList chances;
    for (int k = 0; k < kAtlasScores; ++k)
        if (!std::isnan(m_atlas->chance[size_t(k)]))
            chances << tr("%1 %2")
                           .arg(QString::fromUtf8(toString(AtlasScore(k))))
                           .arg(m_atlas->chance[size_t(k)], 0, 'f', 3);
    return TextBlock::plain(QString::fromStdString(m_atlas->typeSummary())) + "<br>" +
           tr("Chance (a head attending evenly): %1. Types: prev previous token, dup duplicate "
              "token, ind induction, first first token, off±k fixed offset, punct punctuation.")
               .arg(chances.join(QStringLiteral(", ")));
}

void AtlasPage::paint(QCPPainter &painter, const QRectF &rect, LaidOutPage *laidOut) const
{
    LaidOutPage ignored;
    LaidOutPage &laid = laidOut ? *laidOut : ignored;
    double y = rect.top();
    const auto paintText = [&](const QString &what, const TextBlock &text) {
        text.paint(painter, QPointF(rect.left(), y));
        laid.addBlock(what, QRectF(rect.left(), y, rect.width(), text.height()));
        y += text.height() + kAtlasGap;
    };
    paintText("heading", TextBlock("<b>" + TextBlock::plain(title()) + "</b>",
                                   TextBlock::font(16 * m_scale), rect.width()));
    paintText("intro", TextBlock(introText(), TextBlock::font(10.5 * m_scale), rect.width()));
    const TextBlock legend(legendText(), TextBlock::font(9.5 * m_scale), rect.width());
    QRectF sheetArea(rect.left(), y, rect.width(),
                     std::max(0.0, rect.bottom() - y - legend.height() - kAtlasGap));
    HeatmapSheet sheet(SheetBuilder::atlas(*m_atlas), m_style, 8.0 * m_scale);
    sheet.fitLabels(6.5 * m_scale, 10.0 * m_scale, sheetArea.size());
    const QRectF drawn = sheet.paint(painter, sheetArea);
    laid.addSheet(sheet, drawn);
    y = drawn.bottom() + kAtlasGap;
    paintText("legend", legend);
}

} // namespace headlens
