// HandoutLayout: fixed margins, a one-line footer under a thin rule.
#include "print/handoutlayout.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

namespace headlens {

namespace {

QFont footerFont()
{
    QFont font;
    font.setPointSizeF(8.0);
    return font;
}

} // namespace

HandoutLayout::HandoutLayout(const QRectF &page, int dpi)
{
    const double margin = kMarginMillimetres / 25.4 * dpi;
    const QRectF inside = page.adjusted(margin, margin, -margin, -margin * 0.7);
    const double footer = QFontMetricsF(footerFont()).height() + 6.0;
    m_footer = QRectF(inside.left(), inside.bottom() - footer, inside.width(), footer);
    m_body = QRectF(inside.left(), inside.top(), inside.width(), inside.height() - footer - 8.0);
}

QString HandoutLayout::pageNumber(int page, int pages)
{
    return QCoreApplication::translate("HandoutLayout", "page %1 of %2").arg(page).arg(pages);
}

void HandoutLayout::paintFooter(QPainter &painter, const QString &settings, int page,
                                int pages) const
{
    painter.save();
    painter.setPen(QPen(QColor("#9a9a9a"), 0.8));
    painter.drawLine(m_footer.topLeft(), m_footer.topRight());
    painter.setFont(footerFont());
    painter.setPen(QColor("#505050"));
    const QString number = pageNumber(page, pages);
    const QFontMetricsF metrics(footerFont());
    const double numberWidth = metrics.horizontalAdvance(number) + 12.0;
    const QRectF text = m_footer.adjusted(0, 4, 0, 0);
    painter.drawText(text.adjusted(0, 0, -numberWidth, 0), Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(settings, Qt::ElideRight, text.width() - numberWidth));
    painter.drawText(text, Qt::AlignRight | Qt::AlignVCenter, number);
    painter.restore();
}

} // namespace headlens
