// StatusBarReport: the status bar's hover text, progress while computing and the b/n/h summary.
#pragma once

#include "attention/trace.h"

#include <QObject>

class QLabel;
class QProgressBar;
class QStatusBar;

namespace headlens {

/// Owns the widgets of the window's status bar and says in them what the window shows; the
/// window only forwards what to say.
class StatusBarReport : public QObject
{
    Q_OBJECT
public:
    /// Adds the hover text, the progress bar and the summary ("traceSummary") to `bar`.
    explicit StatusBarReport(QStatusBar *bar);

    /// The shapes of batch item `b` of `trace`: b, n, n_kv, h (h_kv when fewer), d_k, d_v.
    void showSummary(const Trace &trace, int b);
    /// The summary describes the traced layer; hidden where a tab shows something else.
    void setSummaryVisible(bool visible);
    /// `sentence` for 8 s, cut at its end to the room the summary and progress leave.
    void showWarning(const QString &sentence);
    /// `text` for 5 s.
    void showMessage(const QString &text);
    void setHoverText(const QString &text);
    void setProgress(int percent);
    /// The progress bar shows, from 0, while the runner computes.
    void setBusy(bool busy);

private:
    QStatusBar *m_bar;
    QLabel *m_hover = nullptr;
    QLabel *m_info = nullptr;
    QProgressBar *m_progress = nullptr;
};

} // namespace headlens
