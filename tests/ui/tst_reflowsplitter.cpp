// tst_reflowsplitter: two panels side by side while they fit at their minimum, else stacked.
#include "panels/reflowsplitter.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;

class TestReflowSplitter : public QObject
{
    Q_OBJECT

private:
    /// A splitter of panels 300 and 200 px wide at the least, 80 and 60 px tall.
    static void addPanels(ReflowSplitter &splitter)
    {
        auto *map = new QWidget;
        map->setMinimumSize(300, 80);
        auto *table = new QWidget;
        table->setMinimumSize(200, 60);
        splitter.addWidget(map);
        splitter.addWidget(table);
    }

private slots:
    void orientationFollowsTheWidth_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("orientation");
        // 300 + 200 + the handle between them.
        QTest::newRow("room to spare") << 800 << int(Qt::Horizontal);
        QTest::newRow("just holds both") << 500 << int(Qt::Vertical); // no room for the handle
        QTest::newRow("too narrow") << 400 << int(Qt::Vertical);
    }
    void orientationFollowsTheWidth()
    {
        QFETCH(int, width);
        QFETCH(int, orientation);
        ReflowSplitter splitter;
        addPanels(splitter);
        splitter.resize(width, 400);
        splitter.show();
        QVERIFY(QTest::qWaitForWindowExposed(&splitter));
        QTRY_COMPARE(int(splitter.orientation()), orientation);
        // Neither panel is squeezed below its minimum, nor collapsed.
        QVERIFY(splitter.widget(0)->width() >= 300);
        QVERIFY(splitter.widget(1)->width() >= 200);
        QVERIFY(splitter.widget(0)->height() >= 80);
        QVERIFY(splitter.widget(1)->height() >= 60);
    }

    // The minimum is the stacked one's width, so it never holds a window wider: the widest
    // panel; and wide again, the panels go back side by side.
    void minimumIsTheWidestPanelAndItComesBack()
    {
        ReflowSplitter splitter;
        addPanels(splitter);
        splitter.resize(400, 400);
        splitter.show();
        QVERIFY(QTest::qWaitForWindowExposed(&splitter));
        QTRY_COMPARE(splitter.orientation(), Qt::Vertical);
        QCOMPARE(splitter.minimumSizeHint().width(), 300);
        QCOMPARE(splitter.minimumSizeHint().height(), 80 + 60 + splitter.handleWidth());
        splitter.resize(900, 400);
        QTRY_COMPARE(splitter.orientation(), Qt::Horizontal);
        QCOMPARE(splitter.minimumSizeHint(), QSize(300, 80));
    }
};

HEADLENS_TEST_MAIN(TestReflowSplitter)
#include "tst_reflowsplitter.moc"
