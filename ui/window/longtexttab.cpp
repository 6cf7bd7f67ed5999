// LongTextTab: follows the runner's tiled and whole runs.
#include "window/longtexttab.h"

#include "longtext/longtextpage.h"
#include "runner/tracerunner.h"

#include <QTabWidget>

namespace headlens {

LongTextTab::LongTextTab(QTabWidget *tabs, TraceRunner *runner)
    : QObject(tabs), m_tabs(tabs), m_page(new LongTextPage(tabs))
{
    m_page->setObjectName("longTextPage");
    tabs->addTab(m_page, tr("Long text"));
    setShown(false);
    connect(runner, &TraceRunner::tiledRunReady, this,
            [this](const std::shared_ptr<const ModelRun> &run) {
                m_page->setRun(run);
                setShown(true);
                m_tabs->setCurrentWidget(m_page);
            });
    connect(runner, &TraceRunner::traceReady, this, [this] {
        m_page->setRun(nullptr);
        setShown(false);
    });
}

void LongTextTab::setShown(bool shown)
{
    m_tabs->setTabVisible(m_tabs->indexOf(m_page), shown);
}

} // namespace headlens
