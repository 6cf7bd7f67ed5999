// LinesPicture: QPainter on a premultiplied QImage, which any thread may paint.
#include "views/linespicture.h"

#include "plot/headcolors.h"
#include "util/sameowner.h"

#include <QPainter>

#include <algorithm>

namespace headlens {

bool LinesLayout::operator==(const LinesLayout &other) const
{
    return queryX == other.queryX && keyX == other.keyX && top == other.top &&
           rowHeight == other.rowHeight;
}

QTransform LinesLayout::mappedTo(const LinesLayout &other) const
{
    const double span = keyX - queryX;
    const double sx = span > 0.0 ? (other.keyX - other.queryX) / span : 1.0;
    const double sy = rowHeight > 0.0 ? other.rowHeight / rowHeight : 1.0;
    return {sx, 0.0, 0.0, sy, other.queryX - queryX * sx, other.top - top * sy};
}

bool LinesPictureRequest::drawsFrom(const std::shared_ptr<const Trace> &shown) const
{
    return sameOwner(trace, shown);
}

bool LinesPictureRequest::sameAs(const LinesPictureRequest &other) const
{
    return sameOwner(trace, other.trace) && batch == other.batch && heads == other.heads &&
           layout == other.layout && size == other.size && pixelRatio == other.pixelRatio &&
           dark == other.dark;
}

void LinesPicture::draw(QPainter &painter, const std::vector<AttentionLine> &lines,
                        const LinesLayout &layout, bool dark)
{
    painter.setRenderHint(QPainter::Antialiasing);
    std::vector<QColor> colors; // per head: the colour's contrast rule costs powers
    for (const AttentionLine &line : lines) {
        while (int(colors.size()) <= line.head)
            colors.push_back(HeadColors::color(int(colors.size()), dark));
        QColor color = colors[size_t(line.head)];
        const double weight = std::clamp(line.weight, 0.0, 1.0);
        color.setAlphaF(float(weight));
        painter.setPen(QPen(color, 0.5 + 3.0 * weight, Qt::SolidLine, Qt::RoundCap));
        painter.drawLine(layout.query(line.query), layout.key(line.key));
    }
}

LinesPicture LinesPicture::make(LinesPictureRequest request,
                                const std::vector<AttentionLine> &lines)
{
    LinesPicture picture;
    const QSize pixels = (QSizeF(request.size) * request.pixelRatio).toSize();
    picture.image = QImage(pixels.expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    picture.image.setDevicePixelRatio(request.pixelRatio);
    picture.image.fill(Qt::transparent);
    {
        QPainter painter(&picture.image);
        draw(painter, lines, request.layout, request.dark);
    }
    picture.request = std::move(request);
    return picture;
}

} // namespace headlens
