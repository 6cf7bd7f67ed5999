// tst_presentationfit: presentation mode on a 1280 x 720 projector: every tab and pipeline step
// fits, nothing collapses to a sliver and every token label of the heatmaps is drawn.
#include "mainwindow.h"
#include "pipeline/pipelineview.h"
#include "pipeline/tensorgallery.h"
#include "plot/heatmapplot.h"
#include "train/trainview.h"
#include "windowsettled.h"

#include <QDockWidget>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTest>

#include <algorithm>

using namespace headlens;
using headlens::test::waitUntilSettled;

namespace {

constexpr QSize kProjector(1280, 720);

/// The heatmaps a person sees on the current tab.
std::vector<HeatmapPlot *> visiblePlots(QWidget *page)
{
    std::vector<HeatmapPlot *> plots;
    for (HeatmapPlot *plot : page->findChildren<HeatmapPlot *>())
        if (plot->isVisible() && plot->rowCount() > 0)
            plots.push_back(plot);
    return plots;
}

/// The tick labels the plot's axis draws, in order.
QStringList drawnLabels(QCPAxis *axis)
{
    axis->parentPlot()->replot(QCustomPlot::rpImmediateRefresh);
    auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker());
    return ticker ? QStringList(ticker->ticks().values()) : QStringList();
}

/// Empty when every plot on `page` is at least its minimum size and, with `labels`, draws one
/// row label per row wherever it names its rows; else what is wrong.
QByteArray plotProblems(QWidget *page, bool labels)
{
    for (HeatmapPlot *plot : visiblePlots(page)) {
        const QByteArray name = plot->title().toUtf8();
        // An explicit minimum (the heads grid's) is what the layout keeps, as in QLayout.
        const QSize hint = plot->minimumSizeHint();
        const QSize min(plot->minimumWidth() > 0 ? plot->minimumWidth() : hint.width(),
                        plot->minimumHeight() > 0 ? plot->minimumHeight() : hint.height());
        if (plot->width() < min.width() || plot->height() < min.height())
            return name + ": " + QByteArray::number(plot->width()) + " x " +
                   QByteArray::number(plot->height()) + " px, smaller than its minimum " +
                   QByteArray::number(min.width()) + " x " + QByteArray::number(min.height());
        const bool named = std::any_of(plot->rowLabels().begin(), plot->rowLabels().end(),
                                       [](const QString &l) { return !l.isEmpty(); });
        if (!labels || !plot->yAxis->visible() || !named)
            continue; // a thumbnail without axes, or a column beside the one with the tokens
        const int rows = int(drawnLabels(plot->yAxis).size());
        if (rows != plot->rowCount())
            return name + ": " + QByteArray::number(rows) + " of " +
                   QByteArray::number(plot->rowCount()) + " row labels drawn";
    }
    return {};
}

/// Empty when no scroll area in `window` hides part of its content sideways.
QByteArray sidewaysProblems(QWidget *window)
{
    for (QScrollArea *scroll : window->findChildren<QScrollArea *>()) {
        if (!scroll->isVisible() || !scroll->widget() || !scroll->widgetResizable())
            continue;
        const int need = scroll->widget()->minimumSizeHint().width();
        if (need > scroll->viewport()->width() + 1 || scroll->horizontalScrollBar()->isVisible())
            return scroll->widget()->metaObject()->className() + QByteArray(" needs ") +
                   QByteArray::number(need) + " px in a view " +
                   QByteArray::number(scroll->viewport()->width()) + " px wide";
    }
    return {};
}

QByteArray sizeText(const QSize &s)
{
    return QByteArray::number(s.width()) + " x " + QByteArray::number(s.height());
}

} // namespace

class TestPresentationFit : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<MainWindow> window;

    QTabWidget *tabs() { return window->tabs(); }
    QDockWidget *dock() { return window->findChild<QDockWidget *>("controlsDock"); }
    /// The window's smallest size, as its layout asks for it.
    QSize minimumSize() { return window->minimumSizeHint().expandedTo(window->minimumSize()); }
    /// The window's minimum within 1280 x 720, the window still that size, nothing wider
    /// than its scroll area; `where` names the tab or step in the failure.
    void checkFitsTheProjector(const QByteArray &where)
    {
        const QSize min = minimumSize();
        QVERIFY2(min.width() <= kProjector.width() && min.height() <= kProjector.height(),
                 where + ": the window needs " + sizeText(min));
        QCOMPARE(window->size(), kProjector);
        QVERIFY2(sidewaysProblems(window.get()).isEmpty(),
                 where + ": " + sidewaysProblems(window.get()));
    }
    void settle()
    {
        QApplication::processEvents();
        QTest::qWait(200);
        QApplication::processEvents();
    }

private slots:
    void init()
    {
        window = std::make_unique<MainWindow>();
        window->setPresentation(true);
        window->resize(kProjector);
        window->show();
        window->recompute();
        QVERIFY(waitUntilSettled(*window));
        settle();
    }
    void cleanup() { window.reset(); }

    void everyTabFitsAProjector_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::addColumn<bool>("presentation");
        QTest::newRow("presentation, light") << false << true;
        QTest::newRow("presentation, dark") << true << true;
        QTest::newRow("normal") << false << false;
    }
    void everyTabFitsAProjector()
    {
        QFETCH(bool, dark);
        QFETCH(bool, presentation);
        window->setDarkTheme(dark);
        window->setPresentation(presentation);
        settle();
        for (int tab = 0; tab < tabs()->count(); ++tab) {
            if (!tabs()->isTabVisible(tab))
                continue;
            tabs()->setCurrentIndex(tab);
            settle();
            const QByteArray where = tabs()->tabText(tab).toUtf8();
            checkFitsTheProjector(where);
            if (QTest::currentTestFailed())
                return;
            // Token labels: the pipeline's test below; the heads grid still thins them.
            QVERIFY2(plotProblems(tabs()->currentWidget(), false).isEmpty(),
                     where + ": " + plotProblems(tabs()->currentWidget(), false));
        }
    }

    // End, then back to Softmax: the heatmaps kept their size; every step fits and the
    // window's minimum did not grow by visiting them.
    void everyPipelineStepFitsAndKeepsItsSize()
    {
        window->showPipeline();
        PipelineView *pipeline = window->pipeline();
        settle();
        const QSize before = minimumSize();
        QTest::keyClick(pipeline, Qt::Key_End);
        settle();
        QSize galleryAtFirst;
        for (int step = pipeline->stepCount() - 1; step >= 0; --step) {
            pipeline->setStep(step, false);
            settle();
            const QByteArray where = "step " + QByteArray::number(step + 1);
            checkFitsTheProjector(where);
            if (QTest::currentTestFailed())
                return;
            QVERIFY2(plotProblems(pipeline, true).isEmpty(),
                     where + ": " + plotProblems(pipeline, true));
            if (galleryAtFirst.isEmpty())
                galleryAtFirst = pipeline->gallery()->size();
            QVERIFY2(pipeline->gallery()->width() == galleryAtFirst.width(),
                     where + ": the heatmaps' column is " +
                         QByteArray::number(pipeline->gallery()->width()) + " px wide, was " +
                         QByteArray::number(galleryAtFirst.width()));
        }
        QVERIFY2(minimumSize().width() <= before.width() &&
                     minimumSize().height() <= before.height(),
                 "the minimum grew from " + sizeText(before) + " to " + sizeText(minimumSize()));
    }

    // The minimum grew at 1600 x 1000 after step 14 with the dock shown, and stayed.
    void minimumDoesNotGrowAfterTheLastStep()
    {
        window->resize(1600, 1000);
        window->showPipeline();
        settle();
        const QSize before = minimumSize();
        window->pipeline()->setStep(window->pipeline()->stepCount() - 1, false);
        settle();
        window->pipeline()->setStep(8, false);
        tabs()->setCurrentWidget(window->viewArea());
        settle();
        QVERIFY2(minimumSize().width() <= std::max(before.width(), kProjector.width()) &&
                     minimumSize().height() <= kProjector.height(),
                 "the minimum grew from " + sizeText(before) + " to " + sizeText(minimumSize()));
        QCOMPARE(window->size(), QSize(1600, 1000));
    }
};

QTEST_MAIN(TestPresentationFit)
#include "tst_presentationfit.moc"
