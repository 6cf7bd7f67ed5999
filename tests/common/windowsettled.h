// waitUntilSettled, settledWindow: how the window tests start a window and wait for its work.
#pragma once

#include "mainwindow.h"
#include "runner/tracerunner.h"

#include "workspace/workspace.h"

#include <QApplication>
#include <QSettings>
#include <QTest>

#include <memory>

namespace headlens::test {

/// Waits (up to 20 s) until the window's worker is idle and a trace is shown, then lets the
/// views take the trace's queued signals; false if that never happened. Use as
/// QVERIFY(waitUntilSettled(*window)).
inline bool waitUntilSettled(const MainWindow &window)
{
    const bool settled =
        QTest::qWaitFor([&] { return !window.runner()->isBusy() && window.trace(); }, 20000);
    QApplication::processEvents();
    return settled;
}

/// Points QSettings at `folder` (INI files), so that a window test never reads or changes the
/// settings of the person running it (recent files, geometry, theme). Call in initTestCase.
inline void keepSettingsIn(const QString &folder)
{
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, folder);
    QSettings::setDefaultFormat(QSettings::IniFormat);
}

/// A MainWindow as the window tests start one: `size`, shown off screen (complaints go to the
/// status bar, not to dialogs), `text` (or the lesson's sentence when empty) computed and
/// settled. Null when the first trace never came: use as QVERIFY(window = settledWindow(...)).
inline std::unique_ptr<MainWindow> settledWindow(const QString &text = {},
                                                 QSize size = QSize(1300, 850))
{
    auto window = std::make_unique<MainWindow>();
    window->resize(size);
    window->setAttribute(Qt::WA_DontShowOnScreen);
    window->show();
    if (!text.isEmpty())
        window->workspace()->setText(text);
    window->recompute();
    if (!waitUntilSettled(*window))
        return nullptr;
    return window;
}

} // namespace headlens::test
