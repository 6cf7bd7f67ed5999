// tst_presentationfit: presentation mode on a 1280 x 720 projector: every tab and pipeline step
// fits, nothing collapses to a sliver and every token label of the heatmaps is drawn.
#include "compare/compareview.h"
#include "corpus/corpuspanel.h"
#include "interventions/headimportanceview.h"
#include "interventions/headsthatmatterview.h"
#include "interventions/patchingmapview.h"
#include "interventions/rankingheatmap.h"
#include "interventions/rankingtable.h"
#include "models/modelcontroller.h"
#include "pipeline/pipelineview.h"
#include "pipeline/tensorgallery.h"
#include "plot/heatmapplot.h"
#include "testmain.h"
#include "train/snapshotgrid.h"
#include "train/toymodelfile.h"
#include "train/trainer.h"
#include "train/trainview.h"
#include "views/differenceheatmap.h"
#include "views/headsgridview.h"
#include "views/headstatstable.h"
#include "window/filecommands.h"
#include "window/modelwiring.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>

#include <QScrollBar>
#include <QSettings>
#include <QStyleOptionComboBox>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <climits>

#include <algorithm>

using namespace headlens;
using headlens::test::compareViewOf;
using headlens::test::filesOf;
using headlens::test::gridOf;
using headlens::test::headsThatMatterOf;
using headlens::test::modelsOf;
using headlens::test::pipelineOf;
using headlens::test::tabsOf;
using headlens::test::trainViewOf;
using headlens::test::viewAreaOf;
using headlens::test::waitUntilSettled;
using headlens::test::workspaceOf;

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

/// The tick labels the plot's axis draws, in order: the ones QCustomPlot laid out for this
/// replot inside the axis range, not the labels the view handed it.
QStringList drawnLabels(QCPAxis *axis)
{
    axis->parentPlot()->replot(QCustomPlot::rpImmediateRefresh);
    QStringList drawn;
    const QVector<double> at = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    for (int i = 0; i < at.size() && i < labels.size(); ++i)
        if (axis->range().contains(at[i]))
            drawn << labels[i];
    return drawn;
}

/// Empty when `plot` draws each of `tokens` once, in order, along both axes (along the ones it
/// draws labels on: in the heads grid the first column names the rows and the bottom heads the
/// columns), each in a cell at least a line of its font tall (so no two labels overlap); else
/// what is wrong.
QByteArray tokenLabelProblems(HeatmapPlot *plot, const QStringList &tokens)
{
    const QByteArray name = plot->title().toUtf8();
    for (QCPAxis *axis : {plot->yAxis, plot->xAxis}) {
        if (!(axis == plot->yAxis ? plot->rowLabelsShown() : plot->columnLabelsShown()))
            continue;
        const QStringList drawn = drawnLabels(axis);
        if (drawn != tokens)
            return name + ": the " + (axis == plot->yAxis ? "rows" : "columns") + " show '" +
                   drawn.join(' ').toUtf8() + "', not '" + tokens.join(' ').toUtf8() + "'";
    }
    const double cell = double(plot->axisRect()->height()) / plot->rowCount();
    const int line = QFontMetrics(plot->yAxis->tickLabelFont()).height();
    if (cell < line)
        return name + ": rows " + QByteArray::number(cell, 'f', 1) + " px for labels " +
               QByteArray::number(line) + " px tall";
    return {};
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
        // A thumbnail without axes, a column beside the one with the tokens, a head of the grid
        // beside the first column (which names the rows for the whole row of heads).
        if (!labels || !plot->yAxis->visible() || !named || !plot->rowLabelsShown())
            continue;
        const int rows = int(drawnLabels(plot->yAxis).size());
        // The heads grid shows every head of a layer (up to 12) at once rather than every label
        // with heads below the fold: then every other label, but no head scrolled away.
        HeadsGridView *grid = nullptr;
        for (QWidget *w = plot; w && !grid; w = w->parentWidget())
            grid = qobject_cast<HeadsGridView *>(w);
        TensorGallery *gallery = nullptr;
        for (QWidget *w = plot; w && !gallery; w = w->parentWidget())
            gallery = qobject_cast<TensorGallery *>(w);
        // So does the Pipeline's gallery, with the shape diagram above it.
        const bool allHeadsShown = (grid && grid->plotCount() <= HeadsGridView::kAllAtOnce &&
                                    grid->scrollArea()->verticalScrollBar()->maximum() == 0) ||
                                   (gallery && gallery->panelCount() <= TensorGallery::kAllAtOnce &&
                                    gallery->fitsOnScreen());
        if (allHeadsShown && rows >= 2)
            continue;
        if (rows != plot->rowCount())
            return name + ": " + QByteArray::number(rows) + " of " +
                   QByteArray::number(plot->rowCount()) + " row labels drawn";
    }
    return {};
}

/// Empty when no scroll area in `window` hides part of its content sideways and no table
/// (the Corpus tab's, the importance list) scrolls sideways to show its columns.
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
    for (QAbstractItemView *table : window->findChildren<QAbstractItemView *>()) {
        if (table->isVisible() && table->horizontalScrollBar()->maximum() > 0)
            return table->objectName().toUtf8() + " (" + table->metaObject()->className() +
                   ") scrolls " + QByteArray::number(table->horizontalScrollBar()->maximum()) +
                   " px sideways";
    }
    return {};
}

/// Empty when every combo box shown in `page` has room for each of its items' whole text at its
/// font (QComboBox clips the text it draws to its edit field, a pixel in on each side); else
/// the first cut ("Induction (copy a" of "Induction (copy a sequence)").
QByteArray cutComboBoxes(QWidget *page)
{
    for (QComboBox *combo : page->findChildren<QComboBox *>()) {
        if (!combo->isVisible() || combo->isEditable())
            continue;
        QStyleOptionComboBox option;
        option.initFrom(combo);
        option.frame = combo->hasFrame();
        const int room =
            combo->style()
                ->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, combo)
                .width() -
            2;
        for (int i = 0; i < combo->count(); ++i) {
            const int need = combo->fontMetrics().horizontalAdvance(combo->itemText(i));
            if (need > room)
                return combo->objectName().toUtf8() + ": '" + combo->itemText(i).toUtf8() +
                       "' needs " + QByteArray::number(need) + " px, the box holds " +
                       QByteArray::number(room);
        }
    }
    return {};
}

/// Empty when the page in front of the pipeline's side tabs shows all of its content without
/// a scroll bar of its own (the pipeline scrolls instead); else how far it scrolls.
QByteArray sideTabScrolls(PipelineView *pipeline)
{
    QWidget *page = pipeline->sideTabs()->currentWidget();
    auto *scroll = qobject_cast<QAbstractScrollArea *>(page);
    if (!scroll)
        scroll = page->findChild<QAbstractScrollArea *>(QString(), Qt::FindDirectChildrenOnly);
    if (!scroll || scroll->verticalScrollBar()->maximum() == 0)
        return {};
    return pipeline->sideTabs()->tabText(pipeline->sideTabs()->currentIndex()).toUtf8() +
           " scrolls " + QByteArray::number(scroll->verticalScrollBar()->maximum()) +
           " px inside the page";
}

/// The mean lightness (0 black .. 255 white) of what `widget` draws.
int meanLightness(QWidget *widget)
{
    const QImage image = widget->grab().toImage();
    qint64 sum = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            sum += image.pixelColor(x, y).lightness();
    const qint64 count = qint64((image.height() + 1) / 2) * ((image.width() + 1) / 2);
    return count > 0 ? int(sum / count) : -1;
}

QByteArray sizeText(const QSize &s)
{
    return QByteArray::number(s.width()) + " x " + QByteArray::number(s.height());
}

/// Empty when the gallery's sentence (the label beside its tensor list) is no taller than its
/// text wrapped at its width, as QFontMetrics wraps it, or than the list beside it; else what
/// is wrong.
QByteArray meaningProblem(const QWidget *gallery)
{
    const auto labels = gallery->findChildren<QLabel *>(QString(), Qt::FindDirectChildrenOnly);
    const auto lists = gallery->findChildren<QComboBox *>(QString(), Qt::FindDirectChildrenOnly);
    if (labels.size() != 1 || lists.size() != 1)
        return "expected one sentence and one list above the heatmaps";
    const QLabel *label = labels.front();
    const QRect room = label->contentsRect();
    const int text = label->fontMetrics()
                         .boundingRect(QRect(0, 0, room.width(), 100000),
                                       Qt::TextWordWrap | int(label->alignment()), label->text())
                         .height();
    const int tallest = std::max(text + label->height() - room.height(), lists.front()->height());
    if (label->height() <= tallest + 2)
        return {};
    return "the sentence is " + QByteArray::number(label->height()) + " px tall for " +
           QByteArray::number(text) + " px of text";
}

} // namespace

class TestPresentationFit : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> window;

    QTabWidget *tabs() { return tabsOf(*window); }
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
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.path());
        QSettings::setDefaultFormat(QSettings::IniFormat);
    }
    void init()
    {
        window = std::make_unique<MainWindow>();
        window->setPresentation(true);
        // Presentation mode starts without the Controls; these tests check that everything
        // still fits a projector when the lecturer brings them back (F4).
        dock()->toggleViewAction()->trigger();
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
            QVERIFY2(plotProblems(tabs()->currentWidget(), true).isEmpty(),
                     where + ": " + plotProblems(tabs()->currentWidget(), true));
            QVERIFY2(cutComboBoxes(window.get()).isEmpty(),
                     where + ": " + cutComboBoxes(window.get()));
        }
    }

    // A toy model file in the Controls: the Show box named it "Toy model: previous-to" (its
    // width was 14 characters), and its summary said "1 heads · 1 layers".
    void toyModelControlsReadInFull()
    {
        TrainingSettings settings = TrainingSettings::defaultsFor(TaskKind::PreviousToken);
        settings.model.layers = 1;
        settings.model.heads = 1;
        const QString path = m_dir.filePath("previous-token.npz");
        ToyModelFile::save(path.toStdString(), Trainer(settings).trainedModel());
        QVERIFY(filesOf(*window)->openAny(path));
        auto *choice = dock()->findChild<QComboBox *>("modelChoice");
        QTRY_COMPARE_WITH_TIMEOUT(choice->currentText(), QString("Toy model: previous-token.npz"),
                                  20000);
        QVERIFY(waitUntilSettled(*window));
        settle();
        QVERIFY2(cutComboBoxes(dock()).isEmpty(), cutComboBoxes(dock()));
        auto *summary = dock()->findChild<QLabel *>("modelSettings");
        QVERIFY2(summary->text().contains("1 head ·") && summary->text().contains("1 layer ·"),
                 qPrintable(summary->text()));
        checkFitsTheProjector("toy model");
    }

    // The Controls dock follows the dark theme whichever was switched on first (it stayed
    // light with presentation mode): what it draws is dark, as the heads beside it.
    void darkControlsInPresentationMode_data()
    {
        QTest::addColumn<bool>("darkFirst");
        QTest::newRow("dark, then presentation") << true;
        QTest::newRow("presentation, then dark") << false;
    }
    void darkControlsInPresentationMode()
    {
        QFETCH(bool, darkFirst);
        window->setPresentation(false);
        if (darkFirst)
            window->setDarkTheme(true);
        window->setPresentation(true);
        window->setDarkTheme(true);
        settle();
        const int dock = meanLightness(this->dock());
        QVERIFY2(dock >= 0 && dock < 90, QByteArray::number(dock));
        window->setDarkTheme(false);
        settle();
        QVERIFY2(meanLightness(this->dock()) > 160,
                 QByteArray::number(meanLightness(this->dock())));
    }

    // 16 heads of the lesson's 10 tokens: every head names every token on both axes, at
    // cells a label tall; the heads that do not fit scroll down, none sideways.
    void headsGridDrawsEveryTokenLabel_data()
    {
        QTest::addColumn<bool>("controls");
        QTest::newRow("controls shown") << true;
        QTest::newRow("controls hidden") << false;
    }
    void headsGridDrawsEveryTokenLabel()
    {
        QFETCH(bool, controls);
        dock()->setVisible(controls);
        AttentionConfig config = workspaceOf(*window)->state().config;
        config.heads = 16;
        workspaceOf(*window)->setConfig(config);
        window->recompute();
        QVERIFY(waitUntilSettled(*window));
        settle();
        const QStringList tokens = workspaceOf(*window)->state().text.split(' ');
        QCOMPARE(tokens.size(), 10);
        HeadsGridView *grid = gridOf(*window);
        QCOMPARE(grid->plotCount(), 16);
        for (int head = 0; head < grid->plotCount(); ++head) {
            HeatmapPlot *plot = grid->plot(head);
            const QByteArray problem = tokenLabelProblems(plot, tokens);
            QVERIFY2(problem.isEmpty(), problem);
            // A head that does not name its rows or its columns has one beside it on the left
            // (the same row of cells) or below it (the same column of cells) that does.
            const QRect cells = plot->axisRect()->rect().translated(plot->mapTo(grid, QPoint()));
            bool rowsNamed = plot->rowLabelsShown(), colsNamed = plot->columnLabelsShown();
            for (int other = 0; other < grid->plotCount(); ++other) {
                HeatmapPlot *o = grid->plot(other);
                const QRect at = o->axisRect()->rect().translated(o->mapTo(grid, QPoint()));
                rowsNamed = rowsNamed || (o->rowLabelsShown() && at.top() == cells.top() &&
                                          at.height() == cells.height() && at.x() < cells.x());
                colsNamed = colsNamed || (o->columnLabelsShown() && at.left() == cells.left() &&
                                          at.width() == cells.width() && at.y() > cells.y());
            }
            QVERIFY2(rowsNamed && colsNamed,
                     qPrintable(plot->title() + ": no head names its rows or columns"));
        }
        checkFitsTheProjector("heads grid");
        QVERIFY2(plotProblems(viewAreaOf(*window), true).isEmpty(),
                 plotProblems(viewAreaOf(*window), true));
        // 16 heads a label tall do not fit 720 px: the grid scrolls down rather than squeeze.
        QVERIFY(grid->scrollArea()->verticalScrollBar()->maximum() > 0);
    }

    // The Train tab's probe: every head of a two-layer model, both layers on one screen.
    void trainProbeShowsBothLayersAtOnce()
    {
        TrainView *train = trainViewOf(*window);
        window->showTrain();
        TrainingSettings settings = TrainingSettings::defaultsFor(TaskKind::Induction);
        settings.model.heads = 2;
        train->train(settings, 5);
        QVERIFY(
            QTest::qWaitFor([&] { return train->stepsDone() == 5 && !train->isBusy(); }, 20000));
        QVERIFY(QTest::qWaitFor(
            [&] { return train->heatmaps()->shownStep() == train->lastReport()->snapshot.step; },
            20000));
        settle();
        QStringList tokens;
        for (const std::string &label : train->lastReport()->snapshot.labels)
            tokens << QString::fromStdString(label);
        SnapshotGrid *probe = train->heatmaps();
        QCOMPARE(probe->plotCount(), settings.model.layers * 2);
        // Both layers at once in the page's height (the lecture compared layer 0 with layer 1
        // one screen apart), in cells of one size a colour can be read in; each layer's first
        // head names the rows (every other token where 20 do not fit).
        auto *page = qobject_cast<QScrollArea *>(tabsOf(*window)->currentWidget());
        QVERIFY(page);
        int top = INT_MAX, bottom = 0;
        QSize cells;
        for (int i = 0; i < probe->plotCount(); ++i) {
            HeatmapPlot *plot = probe->plot(i);
            const QRect at(plot->mapTo(probe, QPoint()), plot->size());
            top = std::min(top, at.top());
            bottom = std::max(bottom, at.bottom());
            if (cells.isEmpty())
                cells = plot->axisRect()->rect().size();
            QCOMPARE(plot->axisRect()->rect().size(), cells);
            QVERIFY2(double(cells.height()) / plot->rowCount() >= 8.0, qPrintable(plot->title()));
            QCOMPARE(plot->rowLabelsShown(), i % 2 == 0);
            if (plot->rowLabelsShown())
                QVERIFY2(drawnLabels(plot->yAxis).size() >= tokens.size() / 2,
                         qPrintable(plot->title()));
        }
        QVERIFY2(bottom - top < page->viewport()->height(),
                 qPrintable(QString("the layers take %1 px of a %2 px page")
                                .arg(bottom - top)
                                .arg(page->viewport()->height())));
        checkFitsTheProjector("train");
    }

    // End, then back to Softmax: the heatmaps kept their size; every step fits and the
    // window's minimum did not grow by visiting them.
    void everyPipelineStepFitsAndKeepsItsSize()
    {
        window->showPipeline();
        PipelineView *pipeline = pipelineOf(*window);
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
            // Below the heatmaps (beside the dock at 1280 px), one scroll reads the side tab.
            QCOMPARE(pipeline->panelsOrientation(), Qt::Vertical);
            // The fit follows the new page's layout, a few events later on a busy machine.
            QTRY_VERIFY2_WITH_TIMEOUT(sideTabScrolls(pipeline).isEmpty(),
                                      where + ": " + sideTabScrolls(pipeline), 5000);
            // The sentence above the heatmaps is as tall as its own wrapped lines: a longer
            // step's three lines stayed when stepping back, and the heatmaps sat 25 px lower
            // than stepping forward to the same step.
            QTRY_VERIFY2_WITH_TIMEOUT(meaningProblem(pipeline->gallery()).isEmpty(),
                                      where + ": " + meaningProblem(pipeline->gallery()), 5000);
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

    // Compare at 1280 px: A, B and A − B of each head side by side cut A − B off at the right
    // and, 260 px tall, showed every other token ("The robot the gear it"). Computed, every
    // plot names every token on both axes and none is cut or scrolled sideways.
    void compareDrawsEveryTokenLabel()
    {
        window->showCompare();
        settle();
        CompareView *compare = compareViewOf(*window);
        const QString textB = "The tired robot lifted the heavy gear because it broke";
        compare->setTextB(textB);
        compare->findChild<QPushButton *>("compareButton")->click();
        QTRY_VERIFY_WITH_TIMEOUT(compare->comparison().has_value(), 20000);
        QVERIFY(waitUntilSettled(*window));
        settle();
        QVERIFY2(compare->comparison()->comparable(), qPrintable(compare->message()));
        const QStringList tokensA = workspaceOf(*window)->state().text.split(' ');
        const QStringList tokensB = textB.split(' ');
        QCOMPARE(compare->rowCount(), workspaceOf(*window)->state().config.heads);
        for (int head = 0; head < compare->rowCount(); ++head) {
            for (const auto &[plot, tokens] :
                 {std::pair<HeatmapPlot *, QStringList>{compare->plotA(head), tokensA},
                  {compare->plotB(head), tokensB},
                  {compare->plotDifference(head), tokensA}}) {
                const QByteArray problem = tokenLabelProblems(plot, tokens);
                QVERIFY2(problem.isEmpty(), problem);
            }
        }
        checkFitsTheProjector("compare");
        QVERIFY2(plotProblems(compare, true).isEmpty(), plotProblems(compare, true));
    }

    // With the tiny GPT-2 open: the Corpus tab's table hid the columns after "Entropy" and the
    // importance list showed "-0.2679…" cut; the patching page was taller than the window.
    // Each tab fits, its tables show every column without a sideways scroll, values in three
    // decimals.
    void modelTabsFitWithTheirTables()
    {
        // The tiny GPT-2 reads at most 32 tokens: a short sentence.
        workspaceOf(*window)->setText("The tired robot dropped the gear");
        QVERIFY(filesOf(*window)->openModel(QString(HEADLENS_TEST_DATA) + "/gpt2/tiny"));
        QTRY_VERIFY_WITH_TIMEOUT(modelsOf(*window)->controller()->run(), 20000);
        QVERIFY(waitUntilSettled(*window));
        // Importance, then a patching map of two texts the tiny model reads as 6 tokens.
        HeadsThatMatterView *matter = headsThatMatterOf(*window);
        window->showHeadsThatMatter();
        matter->importance()->computeButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(matter->importance()->importance(), 20000);
        QVERIFY(waitUntilSettled(*window));
        settle();
        checkFitsTheProjector("importance");
        // What the list draws: its delegate's text of the value.
        RankingTable *list = matter->importance()->heatmap()->table();
        auto *delegate = qobject_cast<QStyledItemDelegate *>(list->itemDelegate());
        QVERIFY(delegate);
        const QString shown =
            delegate->displayText(list->item(0, 2)->data(Qt::DisplayRole), list->locale());
        QVERIFY2(QRegularExpression("^-?\\d+\\.\\d{3}$").match(shown).hasMatch(),
                 qPrintable(shown));
        matter->showPatching();
        RankingRequest patching;
        patching.cleanText = "Hello world, the cat sat";
        patching.answer = " the";
        patching.wrong = " on";
        matter->patching()->fill(patching, "Hello world, the cat on"); // differ by 1.9
        matter->patching()->computeButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(matter->patching()->patching(), 20000);
        QVERIFY(waitUntilSettled(*window));
        settle();
        checkFitsTheProjector("patching");
        // The corpus of four lines, then the Corpus and Model tabs.
        const QString path = m_dir.filePath("corpus.txt");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("The tired robot dropped the heavy gear because it broke\n"
                   "When Mary and John went to the store, John gave a drink to Mary\n"
                   "The cat sat on the mat\nA B C D A B C D\n");
        file.close();
        CorpusPanel *corpus = modelsOf(*window)->corpus();
        corpus->runFile(path);
        QTRY_VERIFY_WITH_TIMEOUT(!corpus->isRunning() && corpus->summary(), 30000);
        window->showCorpusTab();
        settle();
        QCOMPARE(corpus->table()->model()->rowCount(), 4);
        checkFitsTheProjector("corpus");
        window->showModelTab();
        settle();
        checkFitsTheProjector("model");
    }

    // The minimum grew at 1600 x 1000 after step 14 with the dock shown, and stayed.
    void minimumDoesNotGrowAfterTheLastStep()
    {
        window->resize(1600, 1000);
        window->showPipeline();
        settle();
        const QSize before = minimumSize();
        pipelineOf(*window)->setStep(pipelineOf(*window)->stepCount() - 1, false);
        settle();
        pipelineOf(*window)->setStep(8, false);
        tabs()->setCurrentWidget(viewAreaOf(*window));
        settle();
        QVERIFY2(minimumSize().width() <= std::max(before.width(), kProjector.width()) &&
                     minimumSize().height() <= kProjector.height(),
                 "the minimum grew from " + sizeText(before) + " to " + sizeText(minimumSize()));
        QCOMPARE(window->size(), QSize(1600, 1000));
    }
};

HEADLENS_TEST_MAIN(TestPresentationFit)
#include "tst_presentationfit.moc"
