// Tests of TitleFit: a chart title stays whole, on two lines when one is wider than the chart.
#include "plot/titlefit.h"
#include "testmain.h"

#include <QApplication>
#include <QFontMetrics>
#include <QTest>

using namespace headlens;

class tst_TitleFit : public QObject
{
    Q_OBJECT

private slots:
    // The Cost tab's title at 1280 x 720 in presentation mode showed as "ache of all layers
    // against the context len": on a chart narrower than it, it breaks at its middle space.
    void aWideTitleBreaksAtItsMiddleSpace()
    {
        const QString title = "KV cache of all layers against the context length";
        QFont font;
        font.setPointSizeF(14);
        const int width = QFontMetrics(font).horizontalAdvance(title) / 2 + 40;
        const QString fitted = TitleFit::fitted(title, font, width);
        QCOMPARE(fitted, QString("KV cache of all layers\nagainst the context length"));
        for (const QString &line : fitted.split('\n'))
            QVERIFY(QFontMetrics(font).horizontalAdvance(line) <= width);
    }

    void aTitleThatFitsStaysOnOneLine()
    {
        const QString title = "Loss";
        QFont font;
        QCOMPARE(TitleFit::fitted(title, font, 400), title);
        QCOMPARE(TitleFit::fitted(title, font, 0), title); // not laid out yet: left alone
    }

    void oneWordCannotBreak()
    {
        QFont font;
        QCOMPARE(TitleFit::fitted("Accuracy", font, 10), QString("Accuracy"));
    }
};

HEADLENS_TEST_MAIN(tst_TitleFit)
#include "tst_titlefit.moc"
