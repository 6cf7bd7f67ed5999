// PaintWatch: an application-wide event filter that notes paints below its root.
#include "paintwatch.h"

#include <QApplication>
#include <QEvent>
#include <QWidget>

namespace headlens {

PaintWatch::PaintWatch(QWidget *root, std::function<double()> clockMs)
    : m_root(root), m_clockMs(std::move(clockMs))
{
    qApp->installEventFilter(this);
}

PaintWatch::~PaintWatch()
{
    qApp->removeEventFilter(this);
}

bool PaintWatch::eventFilter(QObject *watched, QEvent *event)
{
    if (m_painting) {
        m_lastEndMs = m_clockMs();
        if (m_firstEndMs == 0.0)
            m_firstEndMs = m_lastEndMs;
        m_painting = false;
    }
    if (event->type() == QEvent::Paint && watched->isWidgetType()) {
        auto *widget = static_cast<QWidget *>(watched);
        if (widget == m_root || m_root->isAncestorOf(widget)) {
            ++m_paints;
            m_painting = true;
            m_lastEndMs = m_clockMs();
        }
    }
    return false;
}

} // namespace headlens
