// Selection: the head, query and key a person points at; every view listens to the same one.
#pragma once

#include <QObject>

namespace headlens {

/// Hover (where the mouse is) and the pinned head (clicked, shown large). -1 means none.
class Selection : public QObject
{
    Q_OBJECT
public:
    explicit Selection(QObject *parent = nullptr);

    int hoverHead() const { return m_head; }
    int hoverQuery() const { return m_query; }
    int hoverKey() const { return m_key; }
    int pinnedHead() const { return m_pinned; }

    /// head -1 with a query: a token strip hovers a row in every head.
    void setHover(int head, int query, int key);
    void clearHover() { setHover(-1, -1, -1); }
    void setPinnedHead(int head);
    /// A click on cell (query, key) of head `head` in any heatmap: the pipeline explains it.
    void pickCell(int head, int query, int key) { emit cellPicked(head, query, key); }

signals:
    void hoverChanged(int head, int query, int key);
    void pinnedHeadChanged(int head);
    void cellPicked(int head, int query, int key);

private:
    int m_head = -1;
    int m_query = -1;
    int m_key = -1;
    int m_pinned = -1;
};

} // namespace headlens
