// tst_rankingtable: the ranking list: three decimals drawn, sorted by the exact value, and wide
// enough for its columns.
#include "interventions/rankingtable.h"
#include "testmain.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QStyledItemDelegate>
#include <QTest>

using namespace headlens;

namespace {

/// The text the table draws in (row, column): its delegate's, not the item's own.
QString drawn(const RankingTable &table, int row, int column)
{
    auto *delegate = qobject_cast<QStyledItemDelegate *>(table.itemDelegate());
    return delegate
               ? delegate->displayText(table.item(row, column)->data(Qt::DisplayRole), QLocale::c())
               : QString();
}

} // namespace

class TestRankingTable : public QObject
{
    Q_OBJECT

private slots:
    // Two layers of two heads; 0.12344 and 0.12341 both read "0.123" and still sort apart.
    void valuesReadInThreeDecimalsSortedExactly()
    {
        RankingTable table;
        RowMatrix values(2, 2);
        values << 0.12341f, -0.2679783f, 0.12344f, 1.5f;
        table.setValues(values, "Δ loss");
        QCOMPARE(table.rowCount(), 4);
        QCOMPARE(table.horizontalHeaderItem(2)->text(), QString("Δ loss"));
        // Largest first: layer 1 head 2 (1.5), layer 1 head 1, layer 0 head 1, layer 0 head 2.
        QCOMPARE(table.headAt(0), std::make_pair(1, 1));
        QCOMPARE(table.headAt(1), std::make_pair(1, 0));
        QCOMPARE(table.headAt(2), std::make_pair(0, 0));
        QCOMPARE(table.headAt(3), std::make_pair(0, 1));
        QCOMPARE(drawn(table, 0, 2), QString("1.500"));
        QCOMPARE(drawn(table, 1, 2), QString("0.123"));
        QCOMPARE(drawn(table, 2, 2), QString("0.123"));
        QCOMPARE(drawn(table, 3, 2), QString("-0.268"));
        // Heads from 1, layers from 0, as the map's labels.
        QCOMPARE(drawn(table, 0, 0), QString("1"));
        QCOMPARE(drawn(table, 0, 1), QString("2"));
    }

    // At its minimum width every column is whole: no sideways scroll bar.
    void minimumWidthShowsEveryColumn()
    {
        RankingTable table;
        RowMatrix values(3, 4);
        values.setConstant(-12.3456f);
        table.setValues(values, "share removed");
        table.resize(table.minimumSizeHint().width(), 300);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        QCOMPARE(table.horizontalScrollBar()->maximum(), 0);
        int columns = 0;
        for (int c = 0; c < table.columnCount(); ++c)
            columns += table.horizontalHeader()->sectionSize(c);
        QVERIFY2(
            columns <= table.viewport()->width(),
            qPrintable(
                QString("%1 px of columns in %2 px").arg(columns).arg(table.viewport()->width())));
    }
};

HEADLENS_TEST_MAIN(TestRankingTable)
#include "tst_rankingtable.moc"
