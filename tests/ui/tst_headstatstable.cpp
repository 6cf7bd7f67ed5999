// tst_headstatstable: the model tab's statistics table shows every header whole at the widths the
// tab gives it, and tells the full name of each column in its tooltip.
#include "models/headstatsmodel.h"
#include "models/headstatstable.h"

#include <QHeaderView>
#include <QStyleOptionHeader>
#include <QTest>

using namespace headlens;

class TestHeadStatsTable : public QObject
{
    Q_OBJECT

private slots:
    void headersFitTheirColumns_data()
    {
        QTest::addColumn<int>("width");
        // About the table's width in the model tab of a 1024 x 700 and a 1400 x 900 window.
        QTest::newRow("1024 px window") << 280;
        QTest::newRow("1400 px window") << 400;
    }
    // Every header has what QHeaderView needs for it: the text, the margins and the sort arrow
    // (a narrow table scrolls instead of cutting them).
    void headersFitTheirColumns()
    {
        QFETCH(int, width);
        HeadStatsTable table;
        table.resize(width, 300);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        QHeaderView *header = table.horizontalHeader();
        for (int section = 0; section < header->count(); ++section) {
            QStyleOptionHeader option;
            option.initFrom(header);
            option.section = section;
            option.text = table.model()->headerData(section, Qt::Horizontal).toString();
            option.sortIndicator = QStyleOptionHeader::SortDown;
            const QSize needed = header->style()->sizeFromContents(QStyle::CT_HeaderSection,
                                                                   &option, QSize(), header);
            QVERIFY2(needed.width() <= header->sectionSize(section),
                     qPrintable(QString("\"%1\" needs %2 px, has %3")
                                    .arg(option.text)
                                    .arg(needed.width())
                                    .arg(header->sectionSize(section))));
        }
    }

    void tooltipsGiveTheFullNames()
    {
        HeadStatsModel model;
        const QStringList full{"Layer",          "Head",        "Entropy",        "Distance",
                               "Previous token", "First token", "Self (diagonal)"};
        QCOMPARE(model.columnCount(), int(full.size()));
        for (int section = 0; section < model.columnCount(); ++section) {
            const QString tip =
                model.headerData(section, Qt::Horizontal, Qt::ToolTipRole).toString();
            QVERIFY2(tip.startsWith(full[section]), qPrintable(tip));
        }
    }
};

QTEST_MAIN(TestHeadStatsTable)
#include "tst_headstatstable.moc"
