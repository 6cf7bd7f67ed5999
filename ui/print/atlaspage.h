// AtlasPage: the head atlas of a model laid out on paper, for the handout and --figure atlas.
#pragma once

#include "model/headatlas.h"
#include "plot/plotstyle.h"

#include <QCoreApplication>
#include <QRectF>
#include <QString>

#include <memory>

class QCPPainter;

namespace headlens {

struct LaidOutPage;

/// A heading naming the model, what the scores measure and on which probes, the map of every
/// head's type (SheetBuilder::atlas) as large as the page allows, then how many heads of each
/// type and each score's chance. Needs a QApplication.
class AtlasPage
{
    Q_DECLARE_TR_FUNCTIONS(AtlasPage)

public:
    /// `model`: the name the heading gives; `scale` multiplies every font (1: the handout's).
    AtlasPage(std::shared_ptr<const HeadAtlas> atlas, QString model, PlotStyle style,
              double scale = 1.0);

    /// "Head atlas of GPT-2 (12 layers × 12 heads)"
    QString title() const;
    /// The lines under the map: the type counts, then each score's chance.
    QString legendText() const;
    /// `laidOut`, when given, gets every block painted.
    void paint(QCPPainter &painter, const QRectF &rect, LaidOutPage *laidOut = nullptr) const;

private:
    QString introText() const;

    std::shared_ptr<const HeadAtlas> m_atlas;
    QString m_model;
    PlotStyle m_style;
    double m_scale = 1.0;
};

} // namespace headlens
