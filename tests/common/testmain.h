// The main of a test executable that holds many test classes: each tst_<name>.cpp registers its
// class under its file's name, and `<folder>_tests tst_<name> [Qt Test options]` runs it.
//
// Why not QTEST_MAIN: a test executable per file meant 190 compiles of the same Qt Test and
// Eigen templates and 190 links in each build, most of CI's time. One executable per folder
// (per set of ui libraries) lets a unity build compile the templates once per batch. Each
// CTest entry still runs one class in its own process, as before.
#pragma once

#include <QTest>

namespace headlens::test {

/// Runs one test class with the program's arguments (argv[0] its name), as QTEST_MAIN's main.
using TestRunner = int (*)(int argc, char **argv);

/// Registers `run` under the base name of `file` (tst_softmaxrow.cpp: "tst_softmaxrow").
bool registerTest(const char *file, TestRunner run);

} // namespace headlens::test

/// HEADLENS_TEST_MAIN_WRAPPER(TestObject, setup): QTEST_MAIN_WRAPPER's body as a registered
/// function instead of main(); `setup` (statements, or nothing) runs first, e.g. the application.
#define HEADLENS_TEST_MAIN_WRAPPER(TestObject, setup)                                              \
    static int headlensRun##TestObject(int argc, char *argv[])                                     \
    {                                                                                              \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                         \
        setup TestObject tc;                                                                       \
        QTEST_SET_MAIN_SOURCE_PATH                                                                 \
        return QTest::qExec(&tc, argc, argv);                                                      \
    }                                                                                              \
    static const bool headlensRegistered##TestObject =                                             \
        headlens::test::registerTest(__FILE__, headlensRun##TestObject);

/// As QTEST_MAIN: the application the folder's libraries need (QApplication with Widgets).
#define HEADLENS_TEST_MAIN(TestObject) HEADLENS_TEST_MAIN_WRAPPER(TestObject, QTEST_MAIN_SETUP())
/// As QTEST_GUILESS_MAIN: a QCoreApplication.
#define HEADLENS_TEST_GUILESS_MAIN(TestObject)                                                     \
    HEADLENS_TEST_MAIN_WRAPPER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
/// As QTEST_APPLESS_MAIN: no application object.
#define HEADLENS_TEST_APPLESS_MAIN(TestObject) HEADLENS_TEST_MAIN_WRAPPER(TestObject, )
