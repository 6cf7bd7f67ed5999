// LongTextTab: the "Long text" tab, there only while the text on screen is kept as tiles.
#pragma once

#include <QObject>

class QTabWidget;

namespace headlens {

class LongTextPage;
class TraceRunner;

/// Adds a LongTextPage to `tabs`, hidden. A tiled run (TraceRunner::tiledRunReady) shows it
/// and brings it to the front; the next run that keeps its matrices hides it and lets the
/// tiled run go (gigabytes at 32,768 tokens).
class LongTextTab : public QObject
{
    Q_OBJECT
public:
    LongTextTab(QTabWidget *tabs, TraceRunner *runner);

    LongTextPage *page() const { return m_page; }

private:
    void setShown(bool shown);

    QTabWidget *m_tabs;
    LongTextPage *m_page;
};

} // namespace headlens
