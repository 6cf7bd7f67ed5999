// tst_patchingwindow: the "Heads that matter" tab's patching map, both directions and by position,
// and a toy model's importance, each against the core's rankings run apart from the window.
#include "interventions/ablationeffectbar.h"
#include "interventions/headimportanceview.h"
#include "interventions/headsthatmatterview.h"
#include "interventions/patchingmapview.h"
#include "interventions/positionpatchplot.h"
#include "interventions/rankingheatmap.h"
#include "model/toyranking.h"
#include "model/transformermodel.h"
#include "model/transformerranking.h"
#include "models/modelcontroller.h"
#include "runner/tracerunner.h"
#include "train/trainer.h"
#include "window/filecommands.h"
#include "window/modelwiring.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include "approx.h"
#include "testdata.h"
#include "testmain.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using headlens::test::ablationEffectOf;
using headlens::test::filesOf;
using headlens::test::headsThatMatterOf;
using headlens::test::modelsOf;
using headlens::test::waitUntilSettled;
using headlens::test::workspaceOf;

namespace {

// As many GPT-2 tokens; the last word changed, so that the tiny random GPT-2's logit
// difference moves by more than ln 2 (-0.901 -> -2.766; "dog" for "cat" moved it by 0.08).
const QString kClean = "Hello world, the cat sat";
const QString kCorrupted = "Hello world, the cat on";

void compareTables(const RowMatrix &shown, const RowMatrix &expected)
{
    QCOMPARE(shown.rows(), expected.rows());
    QCOMPARE(shown.cols(), expected.cols());
    for (Eigen::Index l = 0; l < shown.rows(); ++l)
        for (Eigen::Index h = 0; h < shown.cols(); ++h)
            HL_COMPARE_NEAR(shown(l, h), expected(l, h), 1e-5, 1e-6);
}

} // namespace

class TestPatchingWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> window;

    PatchingMapView *patching() const { return headsThatMatterOf(*window)->patching(); }

    // The boxes filled and Compute pressed, as a person would; waits for the new map.
    void computePatching(int direction)
    {
        window->showHeadsThatMatter();
        headsThatMatterOf(*window)->showPatching();
        const auto fill = [this](const char *name, const QString &text) {
            auto *box = patching()->findChild<QLineEdit *>(name);
            box->clear();
            QTest::keyClicks(box, text);
        };
        fill("patchClean", kClean);
        fill("patchCorrupted", kCorrupted);
        fill("patchAnswer", " the");
        fill("patchWrong", " on");
        patching()->findChild<QComboBox *>("patchDirection")->setCurrentIndex(direction);
        const auto before = patching()->patching();
        patching()->computeButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(patching()->patching() != before, 20000);
        QVERIFY(waitUntilSettled(*window));
    }

private slots:
    void initTestCase() { test::keepSettingsIn(m_dir.path()); }
    void init()
    {
        window = test::settledWindow(kCorrupted); // the tiny GPT-2 reads at most 32 tokens
        QVERIFY(window);
    }
    void cleanup() { window.reset(); }

    // Both directions' maps and the strongest head's positions are the core's, value for value;
    // the corrupted text is the one the other views now show.
    void gpt2MapsAreTheCoresInBothDirections()
    {
        QVERIFY(filesOf(*window)->openModel(test::tinyGpt2()));
        QTRY_VERIFY2_WITH_TIMEOUT(modelsOf(*window)->controller()->run(),
                                  qPrintable(window->statusBar()->currentMessage()), 20000);
        QVERIFY(waitUntilSettled(*window));
        const TransformerModel model = TransformerModel::open(test::tinyGpt2().toStdString());
        const std::vector<int> clean = model.encode(kClean.toStdString());
        const std::vector<int> corrupt = model.encode(kCorrupted.toStdString());
        const int answer = model.encode(" the").front(), wrong = model.encode(" on").front();
        const TransformerRanking ranking(model);
        for (const PatchDirection direction :
             {PatchDirection::CleanIntoCorrupt, PatchDirection::CorruptIntoClean}) {
            computePatching(int(direction));
            if (QTest::currentTestFailed())
                return;
            const PatchingMap expected =
                ranking.patching(clean, corrupt, {answer, wrong, direction});
            compareTables(patching()->heatmap()->values(), expected.restored);
            QCOMPARE(workspaceOf(*window)->state().text, kCorrupted);
            PositionPatchPlot *positions = patching()->positions();
            QVERIFY(positions->isVisibleTo(patching()));
            QCOMPARE(positions->values().size(), expected.byPosition.size());
            for (size_t p = 0; p < expected.byPosition.size(); ++p)
                HL_COMPARE_NEAR(positions->values()[p], expected.byPosition[p], 1e-5, 1e-6);
            const QString head =
                QString("Head %1.%2").arg(expected.positionsLayer).arg(expected.positionsHead + 1);
            QVERIFY2(positions->title().startsWith(head), qPrintable(positions->title()));
            QVERIFY2(positions->title().contains(
                         direction == PatchDirection::CleanIntoCorrupt ? "restored" : "removed"),
                     qPrintable(positions->title()));
            // The bars are labelled with the tokens of the run patched into, and tokens count
            // from 1 as the formulas' t_1 … t_n: the second bar is token 2, and the difference
            // is read at the last of the six tokens "Hello ␣world , ␣the ␣cat ␣on" (restoring:
            // the corrupted run is patched into) or "… ␣cat ␣sat" (breaking: the clean run is).
            QVERIFY2(positions->hoverText(1).startsWith("token 2 “␣world” · "),
                     qPrintable(positions->hoverText(1)));
            const QString title = patching()->heatmap()->title();
            const QString last = direction == PatchDirection::CleanIntoCorrupt
                                     ? "(at token 6 “␣on”)"
                                     : "(at token 6 “␣sat”)";
            QVERIFY2(title.endsWith(last), qPrintable(title));
        }
    }

    // The corrupted text is the map's run, not the person's: the workspace keeps the typed text
    // and the Model tab its prediction; the view names both runs (it put the corrupted text
    // into the workspace, so the Model tab predicted the corrupted answer).
    void patchingKeepsThePersonsText()
    {
        const QString typed = "The tired robot dropped the gear";
        workspaceOf(*window)->setText(typed);
        QVERIFY(filesOf(*window)->openModel(test::tinyGpt2()));
        QTRY_VERIFY_WITH_TIMEOUT(modelsOf(*window)->controller()->run(), 20000);
        QVERIFY(waitUntilSettled(*window));
        const TransformerModel model = TransformerModel::open(test::tinyGpt2().toStdString());
        const std::vector<int> typedIds = model.encode(typed.toStdString());
        QCOMPARE(modelsOf(*window)->controller()->run()->tokenIds, typedIds);
        computePatching(int(PatchDirection::CleanIntoCorrupt));
        QCOMPARE(workspaceOf(*window)->state().text, typed);
        QCOMPARE(modelsOf(*window)->controller()->run()->tokenIds, typedIds);
        const PatchingMap expected = TransformerRanking(model).patching(
            model.encode(kClean.toStdString()), model.encode(kCorrupted.toStdString()),
            {model.encode(" the").front(), model.encode(" on").front()});
        compareTables(patching()->heatmap()->values(), expected.restored);
        const auto *runs = patching()->findChild<QLabel *>("patchRuns");
        QVERIFY2(runs, "no line names the runs");
        QCOMPARE(runs->text(),
                 QString("Each head's output from the clean run “Hello world, the cat sat” "
                         "(%1) into the corrupted run of “Hello world, the cat on” (%2), whose "
                         "tokens the bars show; logit(answer) − logit(wrong) in brackets. The "
                         "other tabs still show the workspace's text.")
                     .arg(expected.cleanMetric, 0, 'f', 3)
                     .arg(expected.corruptMetric, 0, 'f', 3));
        QVERIFY2(patching()->positions()->hoverText(5).startsWith("token 6 “␣on” · "),
                 qPrintable(patching()->positions()->hoverText(5)));
    }

    // Two texts whose logit differences are 0.08 apart: too little to share out (the shares
    // were 1.148 and -0.175); the view says so, by how much, and draws no map.
    void saysWhenTheDifferenceIsTooSmall()
    {
        QVERIFY(filesOf(*window)->openModel(test::tinyGpt2()));
        QTRY_VERIFY_WITH_TIMEOUT(modelsOf(*window)->controller()->run(), 20000);
        QVERIFY(waitUntilSettled(*window));
        window->showHeadsThatMatter();
        headsThatMatterOf(*window)->showPatching();
        const auto fill = [this](const char *name, const QString &text) {
            auto *box = patching()->findChild<QLineEdit *>(name);
            box->clear();
            QTest::keyClicks(box, text);
        };
        fill("patchClean", kClean);
        fill("patchCorrupted", "Hello world, the dog sat");
        fill("patchAnswer", " the");
        fill("patchWrong", " on");
        patching()->computeButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(patching()->heatmap()->status().startsWith("The clean and"),
                                 20000);
        QCOMPARE(patching()->heatmap()->status(),
                 QString("The clean and corrupted texts give logit(answer) - logit(wrong) = "
                         "-0.901 and -0.820 at token 6: they differ by 0.081, 0.612 short of the "
                         "ln 2 = 0.693 a patching map needs (a factor of 2 in the odds of the "
                         "answer over the wrong one), so there is too little to share out among "
                         "the heads: one head that moves the metric by 0.081 would show a share "
                         "of 1. Pick a corruption that changes the answer more, or other "
                         "answers."));
        QVERIFY(!patching()->patching());
    }

    // A toy model's importance: the task loss of each head alone ablated, as ToyRanking gives it
    // for the tokens the window ran.
    void toyImportanceIsTheCoresRanking()
    {
        const auto toy = std::make_shared<const TrainedModel>(
            Trainer(TrainingSettings::defaultsFor(TaskKind::PreviousToken)).trainedModel());
        modelsOf(*window)->controller()->openToyModel(toy);
        QTRY_VERIFY_WITH_TIMEOUT(modelsOf(*window)->controller()->run(), 20000);
        QVERIFY(waitUntilSettled(*window));
        const std::vector<int> tokens = modelsOf(*window)->controller()->run()->tokenIds;
        window->showHeadsThatMatter();
        HeadImportanceView *view = headsThatMatterOf(*window)->importance();
        const auto before = view->importance();
        view->computeButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(view->importance() != before, 20000);
        QVERIFY(waitUntilSettled(*window));
        const ToyRanking ranking(*toy);
        const HeadImportance expected = ranking.importance(tokens, ranking.targetsFor(tokens));
        compareTables(view->heatmap()->values(), expected.lossIncrease);
        QCOMPARE(view->heatmap()->values().rows(), toy->settings.model.layers);
        QVERIFY(expected.lossIncrease.cwiseAbs().maxCoeff() > 0.0f); // the check can fail
    }

    // On a toy model, "Heads that matter" ranked the heads on typed text outside the task
    // (8-11 nats unablated, every head "unimportant"). Now the view says the text is not an
    // example, refuses to rank it, and one click types the task's probe and ranks on it.
    void toyImportanceOffersTheTasksExample()
    {
        TrainingSettings settings = TrainingSettings::defaultsFor(TaskKind::Reverse);
        Trainer trainer(settings);
        trainer.step(50);
        const auto toy = std::make_shared<const TrainedModel>(trainer.trainedModel());
        modelsOf(*window)->controller()->openToyModel(toy);
        QTRY_VERIFY_WITH_TIMEOUT(modelsOf(*window)->controller()->run(), 20000);
        QVERIFY(waitUntilSettled(*window));
        window->showHeadsThatMatter();
        HeadImportanceView *view = headsThatMatterOf(*window)->importance();
        const ToyTask task = toy->task();
        const auto typed = modelsOf(*window)->controller()->run()->tokenIds;
        const std::string problem = task.formatProblem(typed).value_or("");
        QVERIFY(!problem.empty()); // the lesson's sentence is not a reverse example
        QVERIFY(view->formatNote()->isVisible());
        QVERIFY2(view->formatNote()->text().contains(QString::fromStdString(problem)),
                 qPrintable(view->formatNote()->text()));
        QVERIFY(view->exampleButton()->isVisible());
        QCOMPARE(view->exampleButton()->text(), QString("Use the reverse task's example"));

        view->computeButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(view->heatmap()->status().contains("measures noise"), 20000);
        QVERIFY(!view->importance());

        view->exampleButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(view->importance(), 20000);
        QVERIFY(waitUntilSettled(*window));
        const std::vector<int> probe = task.probe(settings.seed);
        QCOMPARE(modelsOf(*window)->controller()->run()->tokenIds, probe);
        QVERIFY(!view->formatNote()->isVisible());
        const ToyRanking ranking(*toy);
        const HeadImportance expected = ranking.importance(probe, ranking.targetsFor(probe));
        compareTables(view->heatmap()->values(), expected.lossIncrease);
        QCOMPARE(view->importance()->cleanLoss, expected.cleanLoss);
    }

    // A toy model's ablation bar gives the task's held-out accuracy before and after, as the
    // trainer's own evaluation of the model with and without the head.
    void toyAblationShowsTheTaskAccuracy()
    {
        Trainer trainer(TrainingSettings::defaultsFor(TaskKind::PreviousToken));
        trainer.step(150); // some skill, so that removing a head can cost some
        const auto toy = std::make_shared<const TrainedModel>(trainer.trainedModel());
        modelsOf(*window)->controller()->openToyModel(toy);
        QTRY_VERIFY_WITH_TIMEOUT(modelsOf(*window)->controller()->run(), 20000);
        QVERIFY(waitUntilSettled(*window));
        const HeadIntervention ablation{0, 0, InterventionKind::Zero, -1, -1};
        workspaceOf(*window)->setAblations({ablation});
        QTRY_VERIFY_WITH_TIMEOUT(ablationEffectOf(*window)->effect(), 20000);
        QVERIFY(waitUntilSettled(*window));
        HeadInterventions interventions;
        interventions.items = {ablation};
        const double before = trainer.evaluate().accuracy;
        const double after = trainer.evaluate(&interventions).accuracy;
        const auto percent = [](double p) { return QString("%1 %").arg(100.0 * p, 0, 'f', 1); };
        const QString expected =
            QString("task accuracy (held-out) %1 → %2").arg(percent(before), percent(after));
        QVERIFY2(ablationEffectOf(*window)->text().contains(expected),
                 qPrintable(ablationEffectOf(*window)->text() + " | expected " + expected));
        QVERIFY(before != after); // the head mattered: the check can fail
    }
};

HEADLENS_TEST_MAIN(TestPatchingWindow)
#include "tst_patchingwindow.moc"
