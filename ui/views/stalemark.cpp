// StaleMark: an amber band (the colour of a warning in both themes) with the reason in words.
#include "views/stalemark.h"

namespace headlens {

StaleMark::StaleMark(QWidget *parent) : QLabel(parent)
{
    setObjectName("staleMark");
    setWordWrap(true);
    setMargin(6);
    setAutoFillBackground(true);
    setTextFormat(Qt::PlainText);
    setLook(false, 1.0);
    hide();
}

void StaleMark::setReason(const QString &reason)
{
    m_reason = reason;
    setText(tr("Stale: these heads are from the last settings that worked. %1").arg(reason));
    setVisible(!reason.isEmpty());
}

void StaleMark::setLook(bool dark, double fontScale)
{
    QFont f = font();
    f.setPointSizeF(10.0 * fontScale);
    f.setBold(true);
    setFont(f);
    QPalette p = palette();
    p.setColor(QPalette::Window, dark ? QColor("#5c4400") : QColor("#ffe08a"));
    p.setColor(QPalette::WindowText, dark ? QColor("#ffe7a8") : QColor("#3d2e00"));
    setPalette(p);
}

} // namespace headlens
