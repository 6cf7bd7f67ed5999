# Precompiled headers: Eigen, Qt and QCustomPlot make up most of what every translation unit
# parses (tst_headsgriddrawing.cpp: 330,000 preprocessed lines, 6 of its 8 seconds). Compiling
# them once per target halves the build of the tests and the window (measured: 16 s -> 9 s for a
# UI test under ASan). Off with -DHEADLENS_PCH=OFF, e.g. to check that every file includes what
# it uses.
option(HEADLENS_PCH "Precompile the heavy third-party headers (Eigen, Qt, QCustomPlot)" ON)

# The core stays free of Qt, so its set has no Qt header in it.
set(HEADLENS_PCH_CORE
    <Eigen/Core> <algorithm> <cmath> <cstdint> <functional> <map> <memory> <optional> <string>
    <utility> <vector>)
set(HEADLENS_PCH_QT
    <QCoreApplication> <QObject> <QString> <QStringList> <QTimer> <QThreadPool> <QFutureWatcher>
    <QPromise> <QColor> <QPainter> <QWidget> <QLabel> <QComboBox> <QSpinBox> <QDoubleSpinBox>
    <QCheckBox> <QPushButton> <QGroupBox> <QBoxLayout> <QGridLayout> <QFormLayout> <QScrollArea>
    <QSplitter> <QToolTip> <qcustomplot.h>)

# headlens_precompile(<target> CORE|UI [TEST]): the core's set, or the core's and the window's;
# TEST adds Qt Test.
function(headlens_precompile target kind)
    if(NOT HEADLENS_PCH)
        return()
    endif()
    set(headers ${HEADLENS_PCH_CORE})
    if(kind STREQUAL "UI")
        list(APPEND headers ${HEADLENS_PCH_QT})
    endif()
    if("TEST" IN_LIST ARGN)
        list(APPEND headers <QTest>)
    endif()
    target_precompile_headers(${target} PRIVATE ${headers})
endfunction()

# headlens_reuse_precompiled(<target> <from>): share <from>'s precompiled headers (same flags).
function(headlens_reuse_precompiled target from)
    if(HEADLENS_PCH)
        target_precompile_headers(${target} REUSE_FROM ${from})
    endif()
endfunction()
