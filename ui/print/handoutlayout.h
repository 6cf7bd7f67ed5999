// HandoutLayout: the margins of a handout page, its body and its footer.
#pragma once

#include <QRectF>
#include <QString>

class QPainter;

namespace headlens {

/// In layout pixels (PrintCanvas). The footer carries the settings on the left and the page
/// number on the right, on every page.
class HandoutLayout
{
public:
    static constexpr double kMarginMillimetres = 13.0;

    /// `page`: the whole page; `dpi`: layout pixels per inch.
    HandoutLayout(const QRectF &page, int dpi);

    QRectF body() const { return m_body; }
    QRectF footer() const { return m_footer; }
    /// "page 3 of 15"
    static QString pageNumber(int page, int pages);
    void paintFooter(QPainter &painter, const QString &settings, int page, int pages) const;

private:
    QRectF m_body;
    QRectF m_footer;
};

} // namespace headlens
