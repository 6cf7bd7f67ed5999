// TitleFit: a chart title that is wider than its chart, broken onto two lines.
#pragma once

#include <QFont>
#include <QString>

namespace headlens {

/// Shared by the line charts (training curves, KV cache): a title wider than the chart was cut
/// at both ends ("ache of all layers against the context len" in presentation mode).
class TitleFit
{
public:
    /// `title` as it is when it fits in `width` px at `font`; otherwise broken at the space
    /// nearest its middle, so that it shows whole on two lines.
    static QString fitted(const QString &title, const QFont &font, int width);
};

} // namespace headlens
