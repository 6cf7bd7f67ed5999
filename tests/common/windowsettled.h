// waitUntilSettled: the window tests' "the trace is on screen and nothing is computing".
#pragma once

#include "mainwindow.h"
#include "runner/tracerunner.h"

#include <QApplication>
#include <QTest>

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

} // namespace headlens::test
