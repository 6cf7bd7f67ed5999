// The window tests' set-up and waits: settings of their own, an offscreen window, "settled".
// The one test header that includes mainwindow.h: it builds the window as app/gui/main.cpp
// does; the tests reach its parts by name (windowparts.h), never through its accessors.
#pragma once

#include "runner/tracerunner.h"
#include "window/mainwindow.h"
#include "windowparts.h"
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
        QTest::qWaitFor([&] { return !runnerOf(window)->isBusy() && shownTraceOf(window); }, 20000);
    QApplication::processEvents();
    return settled;
}

/// Waits (up to 20 s) until the window's worker is idle, with or without a trace (after a
/// refused file the old one stays, or there is none), then lets the queued signals through.
inline bool waitUntilIdle(const MainWindow &window)
{
    QApplication::processEvents(); // the submit an edit queued
    const bool idle = QTest::qWaitFor([&] { return !runnerOf(window)->isBusy(); }, 20000);
    QApplication::processEvents();
    return idle;
}

/// Points QSettings at `folder` (INI files in a QTemporaryDir of the test), so that a window
/// test never reads or changes the settings of the person running it (recent files, geometry,
/// theme) or another test's. Call in initTestCase.
inline void keepSettingsIn(const QString &folder)
{
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, folder);
    QSettings::setDefaultFormat(QSettings::IniFormat);
}

/// A MainWindow shown at `size` but on no screen: it lays out and draws, and FileCommands shows
/// no message box that would wait for a click (the message goes to the status bar only).
inline std::unique_ptr<MainWindow> offscreenWindow(QSize size = QSize(1280, 720))
{
    auto window = std::make_unique<MainWindow>();
    window->resize(size);
    window->setAttribute(Qt::WA_DontShowOnScreen);
    window->show();
    return window;
}

/// An offscreenWindow as most window tests start one, with `text` (or the lesson's sentence
/// when empty) computed and settled. Null when the first trace never came.
inline std::unique_ptr<MainWindow> settledWindow(const QString &text = {},
                                                 QSize size = QSize(1300, 850))
{
    auto window = offscreenWindow(size);
    if (!text.isEmpty())
        workspaceOf(*window)->setText(text);
    window->recompute();
    if (!waitUntilSettled(*window))
        return nullptr;
    return window;
}

} // namespace headlens::test
