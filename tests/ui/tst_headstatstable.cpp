// tst_headstatstable: the model tab's statistics table shows every header whole at the widths the
// tab gives it, tells the full name of each column in its tooltip, and shows the encoder's
// [CLS]/[SEP]/punctuation shares and the K/V heads of grouped-query models, sorted by value.
#include "encoderrun.h"

#include "testmain.h"
#include "views/headstatsmodel.h"
#include "views/headstatstable.h"

#include <QHeaderView>
#include <QStyleOptionHeader>
#include <QTest>

using namespace headlens;
using namespace headlens::test;

Q_DECLARE_METATYPE(std::shared_ptr<const headlens::ModelRun>)

namespace {

using Run = std::shared_ptr<const ModelRun>;

// The headers a person sees, left to right.
QStringList visibleHeaders(const HeadStatsTable &table)
{
    QStringList out;
    const QHeaderView *header = table.horizontalHeader();
    for (int visual = 0; visual < header->count(); ++visual) {
        const int section = header->logicalIndex(visual);
        if (!header->isSectionHidden(section))
            out << table.model()->headerData(section, Qt::Horizontal).toString();
    }
    return out;
}

// Column `column` as displayed, top row first.
QStringList columnTexts(const HeadStatsTable &table, int column)
{
    QStringList out;
    for (int row = 0; row < table.model()->rowCount(); ++row)
        out << table.model()->index(row, column).data().toString();
    return out;
}

// "layer.head" of every row as sorted now, heads counted from 1 as the table shows them.
QStringList rowHeads(const HeadStatsTable &table)
{
    QStringList out;
    for (int row = 0; row < table.model()->rowCount(); ++row) {
        const auto [layer, head] = table.headAt(row);
        out << QString("%1.%2").arg(layer).arg(head + 1);
    }
    return out;
}

} // namespace

class TestHeadStatsTable : public QObject
{
    Q_OBJECT

private slots:
    void headersFitTheirColumns_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<Run>("run");
        // About the table's width in the model tab of a 1024 x 700 and a 1400 x 900 window.
        QTest::newRow("1024 px window") << 280 << Run();
        QTest::newRow("1400 px window") << 400 << Run();
        Run encoder = middleSepRun();
        QTest::newRow("1024 px, encoder") << 280 << encoder;
        QTest::newRow("1400 px, grouped-query") << 400 << Run(decoderRun(2, 4, 2));
    }
    // Every header has what it needs: the text, the margins and, when sorted by it, the sort
    // arrow (a narrow table scrolls instead of cutting them).
    void headersFitTheirColumns()
    {
        QFETCH(int, width);
        QFETCH(Run, run);
        HeadStatsTable table;
        if (run)
            table.setRun(run);
        table.resize(width, 300);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        QHeaderView *header = table.horizontalHeader();
        // Sorted by layer, then by entropy: the arrow's room moves with the sorting.
        for (int sorted : {int(HeadStatsModel::Layer), int(HeadStatsModel::Entropy)}) {
            table.sortByColumn(sorted, Qt::DescendingOrder);
            QCOMPARE(header->sortIndicatorSection(), sorted);
            for (int section = 0; section < header->count(); ++section) {
                if (header->isSectionHidden(section))
                    continue;
                QStyleOptionHeader option;
                option.initFrom(header);
                option.section = section;
                option.text = table.model()->headerData(section, Qt::Horizontal).toString();
                // Only the sorted column draws an arrow (and keeps room for it).
                option.sortIndicator =
                    section == sorted ? QStyleOptionHeader::SortDown : QStyleOptionHeader::None;
                const QSize needed = header->style()->sizeFromContents(QStyle::CT_HeaderSection,
                                                                       &option, QSize(), header);
                QVERIFY2(needed.width() <= header->sectionSize(section),
                         qPrintable(QString("\"%1\" needs %2 px, has %3")
                                        .arg(option.text)
                                        .arg(needed.width())
                                        .arg(header->sectionSize(section))));
            }
        }
    }

    void tooltipsGiveTheFullNames()
    {
        HeadStatsModel model;
        const QStringList full{"Layer",           "Head",
                               "K/V head",        "[CLS] share",
                               "[SEP] share",     "Punctuation share",
                               "Entropy",         "Distance",
                               "Previous token",  "First token",
                               "Self (diagonal)", "Induction"};
        QCOMPARE(model.columnCount(), int(full.size()));
        for (int section = 0; section < model.columnCount(); ++section) {
            const QString tip =
                model.headerData(section, Qt::Horizontal, Qt::ToolTipRole).toString();
            QVERIFY2(tip.startsWith(full[section]), qPrintable(tip));
        }
    }

    // A decoder's text has no [CLS], [SEP] or punctuation share (NaN) and its heads do not
    // share K/V: the table keeps the seven columns it had before encoders.
    void aDecodersTableIsUnchanged()
    {
        HeadStatsTable table;
        table.setRun(decoderRun(2, 2, 2));
        QCOMPARE(visibleHeaders(table),
                 QStringList({"Layer", "Head", "Entropy", "Dist.", "Prev.", "First", "Self"}));
        QCOMPARE(columnTexts(table, HeadStatsModel::Entropy),
                 QStringList({"0.500", "0.750", "1.000", "1.250"}));
    }

    void anEncodersTableShowsTheShares()
    {
        HeadStatsTable table;
        table.setRun(middleSepRun());
        // An encoder's first token is its [CLS]: the [CLS] column stands for First too.
        QCOMPARE(visibleHeaders(table), QStringList({"Layer", "Head", "[CLS]", "[SEP]", "Punct.",
                                                     "Entropy", "Dist.", "Prev.", "Self"}));
        // Sorted by layer, then head, as it opens.
        QCOMPARE(rowHeads(table), QStringList({"0.1", "0.2", "1.1", "1.2", "2.1", "2.2"}));
        QCOMPARE(columnTexts(table, HeadStatsModel::SepShare),
                 QStringList({"0.100", "0.200", "0.700", "0.900", "0.300", "0.400"}));
        QCOMPARE(columnTexts(table, HeadStatsModel::ClsShare),
                 QStringList({"0.500", "0.300", "0.050", "0.010", "0.200", "0.100"}));
        QCOMPARE(columnTexts(table, HeadStatsModel::PunctuationShare),
                 QStringList({"0.050", "—", "0.120", "—", "—", "0.080"}));
        QCOMPARE(columnTexts(table, HeadStatsModel::Diagonal),
                 QStringList({"0.250", "0.150", "0.050", "0.350", "0.450", "0.550"}));
    }

    void sortingByAShare_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("order");
        QTest::addColumn<QStringList>("heads");
        QTest::addColumn<QStringList>("values");
        // The finding of Clark et al.: sorted by [SEP] share, the middle layer comes first.
        QTest::newRow("[SEP] descending")
            << int(HeadStatsModel::SepShare) << int(Qt::DescendingOrder)
            << QStringList({"1.2", "1.1", "2.2", "2.1", "0.2", "0.1"})
            << QStringList({"0.900", "0.700", "0.400", "0.300", "0.200", "0.100"});
        QTest::newRow("[CLS] ascending")
            << int(HeadStatsModel::ClsShare) << int(Qt::AscendingOrder)
            << QStringList({"1.2", "1.1", "2.2", "2.1", "0.2", "0.1"})
            << QStringList({"0.010", "0.050", "0.100", "0.200", "0.300", "0.500"});
        // "—" after every number, whichever way (NaN compares false with everything and would
        // scatter the rows); among themselves they keep the layer order.
        QTest::newRow("punctuation descending")
            << int(HeadStatsModel::PunctuationShare) << int(Qt::DescendingOrder)
            << QStringList({"1.1", "2.2", "0.1", "0.2", "1.2", "2.1"})
            << QStringList({"0.120", "0.080", "0.050", "—", "—", "—"});
        QTest::newRow("punctuation ascending")
            << int(HeadStatsModel::PunctuationShare) << int(Qt::AscendingOrder)
            << QStringList({"0.1", "2.2", "1.1", "0.2", "1.2", "2.1"})
            << QStringList({"0.050", "0.080", "0.120", "—", "—", "—"});
        QTest::newRow("self descending")
            << int(HeadStatsModel::Diagonal) << int(Qt::DescendingOrder)
            << QStringList({"2.2", "2.1", "1.2", "0.1", "0.2", "1.1"})
            << QStringList({"0.550", "0.450", "0.350", "0.250", "0.150", "0.050"});
    }
    void sortingByAShare()
    {
        QFETCH(int, column);
        QFETCH(int, order);
        QFETCH(QStringList, heads);
        QFETCH(QStringList, values);
        HeadStatsTable table;
        table.setRun(middleSepRun());
        table.sortByColumn(column, Qt::SortOrder(order)); // what a click on the header does
        QCOMPARE(rowHeads(table), heads);
        QCOMPARE(columnTexts(table, column), values);
    }

    // Clicking the [SEP] header until it sorts from the largest puts the middle layer on top.
    void clickingTheSepHeaderPutsTheMiddleLayerFirst()
    {
        HeadStatsTable table;
        table.setRun(middleSepRun());
        table.resize(700, 300);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        QHeaderView *header = table.horizontalHeader();
        const int x = header->sectionViewportPosition(HeadStatsModel::SepShare) + 10;
        for (int click = 0;
             click < 2 && !(header->sortIndicatorSection() == HeadStatsModel::SepShare &&
                            header->sortIndicatorOrder() == Qt::DescendingOrder);
             ++click)
            QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                              QPoint(x, header->height() / 2));
        QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
        QCOMPARE(table.headAt(0), std::make_pair(1, 1));
        QCOMPARE(table.headAt(1), std::make_pair(1, 0));
    }

    // Head h reads K/V head h / (h / h_kv): with 4 heads and 2 K/V heads, 1 1 2 2 (from 1).
    void groupedQueryHeadsShowTheirKvHead()
    {
        HeadStatsTable table;
        table.setRun(decoderRun(2, 4, 2));
        QCOMPARE(visibleHeaders(table), QStringList({"Layer", "Head", "K/V", "Entropy", "Dist.",
                                                     "Prev.", "First", "Self"}));
        QCOMPARE(columnTexts(table, HeadStatsModel::Head),
                 QStringList({"1", "2", "3", "4", "1", "2", "3", "4"}));
        QCOMPARE(columnTexts(table, HeadStatsModel::KvGroup),
                 QStringList({"1", "1", "2", "2", "1", "1", "2", "2"}));
        table.setRun(decoderRun(1, 4, 1)); // multi-query: one K/V head for all
        QCOMPARE(columnTexts(table, HeadStatsModel::KvGroup), QStringList({"1", "1", "1", "1"}));
        table.setRun(decoderRun(1, 4, 4)); // nothing shared: no column
        QVERIFY(table.isColumnHidden(HeadStatsModel::KvGroup));
    }
};

HEADLENS_TEST_MAIN(TestHeadStatsTable)
#include "tst_headstatstable.moc"
