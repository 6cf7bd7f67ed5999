// Selection: emits only on change, so views echoing it back cannot loop.
#include "selection/selection.h"

namespace headlens {

Selection::Selection(QObject *parent) : QObject(parent) {}

void Selection::setHover(int head, int query, int key)
{
    if (head == m_head && query == m_query && key == m_key)
        return;
    m_head = head;
    m_query = query;
    m_key = key;
    emit hoverChanged(head, query, key);
}

void Selection::setPinnedHead(int head)
{
    if (head == m_pinned)
        return;
    m_pinned = head;
    emit pinnedHeadChanged(head);
}

} // namespace headlens
