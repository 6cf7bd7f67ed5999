// StatusBarReport: status bar widgets built once, their texts set from the window's signals.
#include "window/statusbarreport.h"

#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

#include <algorithm>

namespace headlens {

namespace {

/// The status bar's own margins and the gaps between its widgets, in pixels, about.
constexpr int kStatusMargins = 40;

} // namespace

StatusBarReport::StatusBarReport(QStatusBar *bar) : QObject(bar), m_bar(bar)
{
    m_hover = new QLabel(bar);
    m_info = new QLabel(bar);
    m_info->setObjectName("traceSummary");
    m_progress = new QProgressBar(bar);
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(160);
    m_progress->setFormat(tr("computing %p%"));
    m_progress->hide();
    bar->addWidget(m_hover, 1);
    bar->addPermanentWidget(m_progress);
    bar->addPermanentWidget(m_info);
}

void StatusBarReport::showSummary(const Trace &trace, int b)
{
    const AttentionConfig &c = trace.config;
    m_info->setText(
        tr("b=%1 · n=%2 · n_kv=%3 · h=%4%5 · d_k=%6 · d_v=%7")
            .arg(trace.batch())
            .arg(trace.input.queryLengthOf(b))
            .arg(trace.input.keyLengthOf(b))
            .arg(c.heads)
            .arg(c.kvHeadCount() < c.heads ? tr(" · h_kv=%1").arg(c.kvHeadCount()) : QString())
            .arg(c.headDimK())
            .arg(c.headDimV()));
}

void StatusBarReport::setSummaryVisible(bool visible)
{
    m_info->setVisible(visible);
}

// At 1280 px the summary cut a warning after the tensor's name; such a sentence starts with the
// file, the tensor and the counts, so its end gives way.
void StatusBarReport::showWarning(const QString &sentence)
{
    const int summary =
        m_info->sizeHint().width() + (m_progress->isVisible() ? m_progress->sizeHint().width() : 0);
    const int room = std::max(m_bar->width() - summary - kStatusMargins, 120);
    m_bar->showMessage(m_bar->fontMetrics().elidedText(sentence, Qt::ElideRight, room), 8000);
}

void StatusBarReport::showMessage(const QString &text)
{
    m_bar->showMessage(text, 5000);
}

void StatusBarReport::setHoverText(const QString &text)
{
    m_hover->setText(text);
}

void StatusBarReport::setProgress(int percent)
{
    m_progress->setValue(percent);
}

void StatusBarReport::setBusy(bool busy)
{
    m_progress->setValue(0);
    m_progress->setVisible(busy);
}

} // namespace headlens
