// ScreenshotTaker: waits for the worker's trace, then writes the window (or a view) to a PNG.
#pragma once

#include "print/handoutwriter.h"

#include <QObject>
#include <QString>
#include <QTimer>

namespace headlens {

class MainWindow;

/// For `headlens --screenshot`: grabs only once the runner is idle, so the picture shows the
/// computed heads (or the message explaining why there are none), then quits the application.
class ScreenshotTaker : public QObject
{
    Q_OBJECT
public:
    static constexpr int kLiveStepsPerSecond = 10;
    static constexpr int kLiveSteps = 20;

    /// `view`: "handout" (writes the pipeline handout PDF to `path`), "heads", "head:N", "model",
    /// "pipeline" (then `step`, 1-based, is shown; 0 = the first), "cost", "train" (waits until
    /// the training started with --train has finished) or "train-live" (grabs that training
    /// after kLiveSteps steps, still running at kLiveStepsPerSecond).
    ScreenshotTaker(MainWindow *window, QString path, QString view, int step = 0);
    /// The handout's paper (headlens --page, --landscape).
    void setHandoutPage(const PageSetup &page) { m_page = page; }

private:
    void poll();
    void take();
    void writeHandout();

    MainWindow *m_window;
    QString m_path;
    QString m_view;
    int m_step = 0;
    PageSetup m_page;
    QTimer m_timer;
    int m_waited = 0;
};

} // namespace headlens
