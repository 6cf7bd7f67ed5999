// tst_fulltextcombobox: the box is as wide as its widest item at the font shown now, however the
// items and the font change (it measures them once per change, not at every size request).
#include "panels/fulltextcombobox.h"
#include "testmain.h"

#include <QApplication>
#include <QTest>

using namespace headlens;

class TestFullTextComboBox : public QObject
{
    Q_OBJECT

private slots:
    void widthFollowsTheWidestItem();
    void aLargerFontWidensTheBox();
    void aThousandTokensInOneInsertion();
};

namespace {

const QString kShort = "k";
const QString kLong = "Induction (copy a sequence)";

/// The room the box gives its text: its minimum width less what the style adds to an empty box.
int textRoom(const FullTextComboBox &box)
{
    FullTextComboBox empty(40);
    empty.setFont(box.font());
    return box.minimumSizeHint().width() - empty.minimumSizeHint().width();
}

} // namespace

// Added, replaced, removed, renamed: each time the room is the widest item's advance.
void TestFullTextComboBox::widthFollowsTheWidestItem()
{
    FullTextComboBox box(40);
    const QFontMetrics metrics(box.font());
    box.addItem(kShort);
    QCOMPARE(textRoom(box), metrics.horizontalAdvance(kShort));
    box.addItem(kLong);
    QCOMPARE(textRoom(box), metrics.horizontalAdvance(kLong));
    box.removeItem(1);
    QCOMPARE(textRoom(box), metrics.horizontalAdvance(kShort));
    box.setItemText(0, kLong + kShort);
    QCOMPARE(textRoom(box), metrics.horizontalAdvance(kLong + kShort));
    box.clear();
    QCOMPARE(textRoom(box), 0);
}

// Presentation mode enlarges the window's font: the width measured at the old one must go.
void TestFullTextComboBox::aLargerFontWidensTheBox()
{
    QWidget parent;
    auto *box = new FullTextComboBox(40, &parent);
    box->addItem(kLong);
    const int before = box->sizeHint().width();
    QFont larger = parent.font();
    larger.setPointSizeF(larger.pointSizeF() * 2.0);
    parent.setFont(larger); // inherited, as presentation mode sets it on the window
    QCOMPARE(textRoom(*box), QFontMetrics(larger).horizontalAdvance(kLong));
    QVERIFY2(box->sizeHint().width() > before,
             qPrintable(QString("%1 px at twice the font, %2 before")
                            .arg(box->sizeHint().width())
                            .arg(before)));
}

// A token picker's 1,024 entries, the widest in the middle, then capped at maxCharacters.
void TestFullTextComboBox::aThousandTokensInOneInsertion()
{
    QStringList entries;
    for (int i = 0; i < 1024; ++i)
        entries << QString("%1 “tok”").arg(i + 1);
    entries[512] = QString("513 “%1”").arg(kLong);
    FullTextComboBox box(24);
    box.addItems(entries);
    QCOMPARE(box.count(), 1024);
    const QFontMetrics metrics(box.font());
    const int cap = metrics.horizontalAdvance(QLatin1Char('x')) * 24;
    QCOMPARE(textRoom(box), std::min(metrics.horizontalAdvance(entries[512]), cap));
    box.removeItem(512);
    QCOMPARE(textRoom(box), std::min(metrics.horizontalAdvance(entries[1023]), cap));
}

HEADLENS_TEST_MAIN(TestFullTextComboBox)
#include "tst_fulltextcombobox.moc"
