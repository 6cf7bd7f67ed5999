// tst_languagemodelview: Train > Language model as a person uses it: a text, Train, Pause and
// Train again, the curves and the heads, Save, "Open in views", texts that cannot train.
#include "models/modelcontroller.h"
#include "panels/problembanner.h"
#include "plot/heatmapplot.h"
#include "stories/storygenerator.h"
#include "testmain.h"
#include "text/tokenizer.h"
#include "text/tokenizerjson.h"
#include "train/curveplot.h"
#include "train/languagemodelview.h"
#include "train/snapshotgrid.h"
#include "train/trainingrunner.h"
#include "train/trainingtokens.h"
#include "util/counterrandom.h"
#include "window/modelwiring.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace headlens;
using headlens::test::languageModelViewOf;
using headlens::test::modelsOf;
using headlens::test::tabsOf;
using headlens::test::viewAreaOf;
using headlens::test::workspaceOf;

namespace {

/// Short sentences about two made-up names that recur within a few words (what a byte-level
/// model learns to copy), 20 kB of them, the same on every run.
std::string stories()
{
    const CounterRandom random(4, 1);
    const char *syllables[] = {"ka", "lo", "mi", "ra", "to", "bi", "se", "nu", "fa", "de"};
    const char *verbs[] = {"saw", "met", "helped", "called"};
    uint64_t draw = 0;
    const auto pick = [&](uint64_t count) { return random.bits(draw++) % count; };
    std::string text;
    while (text.size() < 20000) {
        std::string a, b;
        for (int s = 0; s < 3; ++s) {
            a += syllables[pick(10)];
            b += syllables[pick(10)];
        }
        a[0] = char(a[0] - 32);
        b[0] = char(b[0] - 32);
        for (int k = 0; k < 4; ++k)
            text += a + " " + verbs[pick(4)] + " " + b + ". " + b + " ran. ";
        text += "\n";
    }
    return text;
}

} // namespace

class TestLanguageModelView : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<LanguageModelView> view;
    QTemporaryDir dir;

    void settle()
    {
        QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy() && view->lastReport(), 60000);
        QApplication::processEvents();
    }
    QPushButton *button(const char *name) { return view->findChild<QPushButton *>(name); }

private slots:
    void initTestCase() { test::keepSettingsIn(dir.filePath("settings")); }
    /// The Micro preset: the same two layers of four heads as Tiny, an eighth of its work (the
    /// sanitizer build runs these tests too).
    static void useMicro(LanguageModelView *lm)
    {
        lm->presetBox()->setCurrentIndex(lm->presetBox()->findData(QStringLiteral("micro")));
        QCOMPARE(lm->presetBox()->currentText(),
                 QStringLiteral("Micro: 2 layers, 4 heads, d_model 64, context 32"));
    }

    void init()
    {
        view = std::make_unique<LanguageModelView>();
        QCOMPARE(view->presetBox()->currentData().toString(), QStringLiteral("tiny")); // default
        useMicro(view.get());
        view->resize(1280, 720);
        view->show();
    }
    void cleanup() { view.reset(); }

    /// Shown for the first time, the view trains on HeadLens's generated stories.
    void startsWithTheGeneratedStories()
    {
        settle();
        QVERIFY2(view->findChild<QLabel *>("lmTextName")
                     ->text()
                     .startsWith(QStringLiteral("Generated stories (%1 bytes, %1 tokens)")
                                     .arg(StoryGenerator(0)
                                              .generate(LanguageModelView::kStoryBytes)
                                              .text.size())),
                 qPrintable(view->findChild<QLabel *>("lmTextName")->text()));
        QVERIFY(button("lmTrain")->isEnabled());
        QCOMPARE(view->stepsDone(), int64_t(0));
        QCOMPARE(view->heatmaps()->plotCount(), 8); // the heads at step 0 already
    }

    void trainsAndDrawsTheCurvesAndEveryHead()
    {
        view->stepsBox()->setValue(40);
        view->setText("stories", stories());
        settle(); // step 0 of the new run
        QVERIFY(button("lmTrain")->isEnabled());
        QTest::mouseClick(button("lmTrain"), Qt::LeftButton);
        QVERIFY(view->runner()->isRunning());
        QVERIFY(!button("lmTrain")->isEnabled());
        QVERIFY(!view->presetBox()->isEnabled()); // the size does not change under a run
        QTRY_VERIFY_WITH_TIMEOUT(!view->runner()->isRunning(), 120000);
        settle();
        QCOMPARE(view->stepsDone(), int64_t(40));
        QCOMPARE(view->lastReport()->evaluation.step, int64_t(40));
        // The held-out loss has fallen from about log 256 = 5.5 nats a byte.
        QVERIFY2(view->lastReport()->evaluation.loss < 4.0,
                 std::to_string(view->lastReport()->evaluation.loss).c_str());
        QVERIFY(view->lossPlot()->pointCount(0) > 0);  // training
        QVERIFY(view->lossPlot()->pointCount(1) >= 2); // held-out, step 0 and the end
        QCOMPARE(view->lossPlot()->pointCount(2), view->lossPlot()->pointCount(3));
        QVERIFY(view->lossPlot()->pointCount(2) >= 2); // the copying test at every report
        QCOMPARE(int(view->log().rows().size()), view->lossPlot()->pointCount(2));
        // Every head of the Micro preset (2 layers x 4 heads) on 32 tokens of held-out text,
        // each row of each head a distribution over the keys it may see.
        SnapshotGrid *grid = view->heatmaps();
        QCOMPARE(grid->plotCount(), 8);
        QCOMPARE(grid->shownStep(), int64_t(40));
        for (int i = 0; i < 8; ++i) {
            HeatmapPlot *plot = grid->plot(i);
            QCOMPARE(plot->rowCount(), 32);
            QVERIFY2(plot->isVisible() && plot->height() >= 2 * 32,
                     qPrintable(QStringLiteral("head %1: %2 px").arg(i).arg(plot->height())));
        }
        QVERIFY(view->statusLabel()->text().startsWith("Step 40 of 40 · "));
        QVERIFY(view->statusLabel()->text().contains("tokens/s"));
        // The sample of the model as it stands where the run stopped.
        QVERIFY2(view->sampleLabel()->text().startsWith("Sample at step 40: "),
                 qPrintable(view->sampleLabel()->text()));
    }

    void pauseStopsAndTrainGoesOnFromThere()
    {
        view->stepsBox()->setValue(100000);
        view->setText("stories", stories());
        settle();
        QTest::mouseClick(button("lmTrain"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(view->stepsDone() >= 5, 60000);
        QTest::mouseClick(button("lmPause"), Qt::LeftButton);
        QVERIFY(!view->runner()->isRunning());
        settle();
        const int64_t paused = view->stepsDone();
        QCOMPARE(view->lastReport()->evaluation.step, paused); // the exact state it stopped at
        QTest::qWait(300);
        QCOMPARE(view->stepsDone(), paused);
        // Steps is the run's length: Train goes on from where it stood to the new length.
        view->stepsBox()->setValue(int(paused) + 10);
        QTest::mouseClick(button("lmTrain"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!view->runner()->isRunning(), 120000);
        settle();
        QCOMPARE(view->stepsDone(), paused + 10);
        QTest::mouseClick(button("lmReset"), Qt::LeftButton);
        settle();
        QCOMPARE(view->stepsDone(), int64_t(0));
        QCOMPARE(view->lossPlot()->pointCount(0), 0);
    }

    void textsThatCannotTrainSayWhy()
    {
        // Training on the stories when a text too short is chosen: the run stops, and none of
        // its reports reaches the curves of the text that cannot train.
        view->stepsBox()->setValue(100000);
        settle();
        view->train();
        QTRY_VERIFY_WITH_TIMEOUT(view->stepsDone() > 0, 60000);
        view->setText("note.txt", std::string(500, 'a'));
        QVERIFY(!view->runner()->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy(), 60000);
        QApplication::processEvents();
        QCOMPARE(view->stepsDone(), int64_t(0));
        QVERIFY(!view->lastReport());
        QCOMPARE(view->lossPlot()->pointCount(0), 0);
        QCOMPARE(view->lossPlot()->pointCount(1), 0);
        QVERIFY(view->banner()->isVisible());
        QVERIFY2(view->banner()->message().contains(
                     "note.txt: The text is too short to train a context of 32 tokens: it gives "
                     "500 tokens, and training needs at least 660"),
                 qPrintable(view->banner()->message()));
        QVERIFY(!button("lmTrain")->isEnabled());
        QFile binary(dir.filePath("program.bin"));
        QVERIFY(binary.open(QIODevice::WriteOnly) && binary.write("\x7f"
                                                                  "ELF\0\0",
                                                                  6) == 6);
        binary.close();
        view->openText(binary.fileName());
        QVERIFY2(view->banner()->message().contains("looks binary (a zero byte at offset 4)"),
                 qPrintable(view->banner()->message()));
    }

    /// A BPE learned from the text in the background: the run waits for it, its vocabulary is
    /// the model's, the probe and the sample are in its tokens, and Save writes it.
    void bpeIsLearnedFromTheTextAndSaved()
    {
        view->stepsBox()->setValue(10);
        view->setText("stories", stories());
        settle();
        view->vocabularyBox()->setValue(300);
        QVERIFY(!view->vocabularyBox()->isEnabled()); // bytes: no vocabulary to choose
        view->tokenizerBox()->setCurrentIndex(view->tokenizerBox()->findData(1));
        QVERIFY(view->vocabularyBox()->isEnabled());
        view->train(); // asked for before the BPE is ready: trains once it is
        QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy() && view->stepsDone() == 10, 120000);
        QApplication::processEvents();
        QVERIFY(view->tokens());
        QCOMPARE(view->tokens()->vocabulary(), 300);
        QCOMPARE(view->tokens()->name(), std::string("BPE of 300 tokens"));
        QCOMPARE(view->findChild<QLabel *>("lmTextName")->text(),
                 QStringLiteral("stories (%1 bytes, %2 tokens)")
                     .arg(stories().size())
                     .arg(view->tokens()->ids().size()));
        QCOMPARE(view->lossPlot()->title(), QStringLiteral("Loss (nats per token)"));
        // The heads' probe is in BPE tokens, labelled with what each stands for ("␣saw").
        const AttentionSnapshot &probe = view->lastReport()->snapshot;
        const auto merged = std::find_if(probe.tokens.begin(), probe.tokens.end(),
                                         [](int id) { return id >= 257; });
        QVERIFY(merged != probe.tokens.end());
        const std::string label = probe.labels[size_t(merged - probe.tokens.begin())];
        QCOMPARE(label, view->tokens()->labels()[size_t(*merged)]);
        QVERIFY2(Tokenizer::tokenize(label, TokenizerKind::Characters).size() >= 2, label.c_str());
        QVERIFY2(view->sampleLabel()->text().startsWith("Sample at step 10: "),
                 qPrintable(view->sampleLabel()->text()));
        const QString folder = dir.filePath("bpe");
        QVERIFY(view->saveTo(folder));
        const TokenizerPipeline saved =
            TokenizerJson::load(QDir(folder).filePath("tokenizer.json").toStdString());
        QCOMPARE(saved.idLimit(), 300);
        // The saved tokenizer reads the text into the very ids the model trained on.
        QCOMPARE(saved.encode(stories(), false), view->tokens()->ids());
        // Back to bytes: the loss is per byte again, the vocabulary box idle.
        view->tokenizerBox()->setCurrentIndex(0);
        QTRY_VERIFY_WITH_TIMEOUT(view->tokens() && view->tokens()->vocabulary() == 256, 60000);
        QVERIFY(!view->vocabularyBox()->isEnabled());
        QCOMPARE(view->lossPlot()->title(), QStringLiteral("Loss (nats per byte)"));
    }

    /// Custom… starts from the preset chosen before; sizes that cannot be split, or that do not
    /// fit in memory, are refused in the banner with Train off; the memory estimate follows.
    void customSizesAndWhatDoesNotFit()
    {
        view->setText("stories", stories());
        settle();
        QVERIFY(view->memoryLabel()->text().startsWith("0.12 M parameters; training holds about "));
        QVERIFY(!view->layersBox()->isVisible());
        view->presetBox()->setCurrentIndex(view->presetBox()->findData("custom"));
        QVERIFY(view->layersBox()->isVisible());
        QCOMPARE(view->layersBox()->value(), 2); // Micro's
        QCOMPARE(view->headsBox()->value(), 4);
        QCOMPARE(view->dModelBox()->value(), 64);
        QCOMPARE(view->contextBox()->value(), 32);
        QVERIFY(button("lmTrain")->isEnabled());
        view->headsBox()->setValue(3);
        QVERIFY(view->banner()->isVisible());
        QVERIFY2(view->banner()->message().contains("d_model 64"),
                 qPrintable(view->banner()->message()));
        QVERIFY(!button("lmTrain")->isEnabled());
        view->headsBox()->setValue(2);
        view->layersBox()->setValue(1);
        settle();
        QVERIFY(!view->banner()->isVisible());
        QVERIFY(button("lmTrain")->isEnabled());
        QCOMPARE(view->heatmaps()->plotCount(), 2); // one layer of two heads
        // 12 layers of 16 heads, d_model 768, over 1,024 tokens: about 43 GiB of activations a
        // batch of 16 (the text is too short for that context, too, but memory is said first).
        view->dModelBox()->setValue(768);
        view->headsBox()->setValue(16);
        view->contextBox()->setValue(1024);
        view->layersBox()->setValue(12);
        QVERIFY2(view->banner()->message().contains("Training this model needs about "),
                 qPrintable(view->banner()->message()));
        QVERIFY(!button("lmTrain")->isEnabled());
        QVERIFY2(view->memoryLabel()->text().contains(" GiB"),
                 qPrintable(view->memoryLabel()->text()));
    }

    /// Custom… also chooses the model's options: RoPE, shared K/V heads, no MLP, dropout. The
    /// run trains that model, and it saves as HeadLens's own headlens_gpt (GPT-2 has no RoPE).
    void customOptionsTrainTheModelTheyName()
    {
        view->stepsBox()->setValue(10); // the box's least
        view->setText("stories", stories());
        settle();
        view->train();
        QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy() && view->stepsDone() == 10, 120000);
        QApplication::processEvents();
        const auto micro = view->lastReport();
        // Custom starts as Micro: the same model, so the run trained stays as it is.
        view->presetBox()->setCurrentIndex(view->presetBox()->findData("custom"));
        QCOMPARE(view->stepsDone(), int64_t(10));
        QCOMPARE(view->lastReport(), micro);
        QVERIFY(button("lmSave")->isEnabled());
        QCOMPARE(view->kvHeadsBox()->text(), QStringLiteral("all"));
        QVERIFY(!view->ropeBox()->isChecked() && !view->attentionOnlyBox()->isChecked());
        view->kvHeadsBox()->setValue(3); // does not divide 4 heads
        QVERIFY2(view->banner()->message().contains(
                     "3 key/value heads cannot be shared evenly by 4 query heads: use one of 1, "
                     "2, 4."),
                 qPrintable(view->banner()->message()));
        QVERIFY(!button("lmTrain")->isEnabled());
        view->kvHeadsBox()->setValue(1);
        view->ropeBox()->setChecked(true);
        view->attentionOnlyBox()->setChecked(true);
        view->dropoutBox()->setValue(0.1);
        QTRY_VERIFY2_WITH_TIMEOUT(!view->isBusy() && view->lastReport(),
                                  qPrintable(QStringLiteral("busy %1, report %2, banner: %3")
                                                 .arg(view->isBusy())
                                                 .arg(view->lastReport() != nullptr)
                                                 .arg(view->banner()->message())),
                                  20000);
        QVERIFY(!view->banner()->isVisible());
        QCOMPARE(view->stepsDone(), int64_t(0)); // another model: a new run
        view->train();
        QTRY_VERIFY2_WITH_TIMEOUT(!view->isBusy() && view->stepsDone() == 10,
                                  qPrintable(QStringLiteral("busy %1, step %2, banner: %3")
                                                 .arg(view->isBusy())
                                                 .arg(view->stepsDone())
                                                 .arg(view->banner()->message())),
                                  120000);
        QApplication::processEvents();
        const ToyModelConfig &trained = view->lastReport()->model->settings.model;
        QVERIFY(trained.rope);
        QCOMPARE(trained.kvHeads, 1);
        QVERIFY(!trained.mlp);
        QCOMPARE(trained.dropout, 0.1f);
        const QString folder = dir.filePath("options");
        QVERIFY(view->saveTo(folder));
        QFile config(QDir(folder).filePath("config.json"));
        QVERIFY(config.open(QIODevice::ReadOnly));
        const QJsonObject json = QJsonDocument::fromJson(config.readAll()).object();
        QCOMPARE(json["model_type"].toString(), QStringLiteral("headlens_gpt"));
        QCOMPARE(json["n_kv_head"].toInt(), 1);
        QCOMPARE(json["rope"].toBool(), true);
    }

    /// The curves against seconds of training: each report's point at its seconds.
    void curvesAgainstSeconds()
    {
        view->stepsBox()->setValue(20);
        view->setText("stories", stories());
        settle();
        view->train();
        QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy() && view->stepsDone() == 20, 120000);
        QApplication::processEvents();
        view->axisBox()->setCurrentIndex(1);
        QCOMPARE(view->lossPlot()->xAxis->label(), QStringLiteral("seconds"));
        QCOMPARE(view->scorePlot()->xAxis->label(), QStringLiteral("seconds"));
        const QCPGraph *heldOut = view->lossPlot()->graph(1);
        QCOMPARE(heldOut->data()->at(heldOut->dataCount() - 1)->key, view->lastReport()->seconds);
    }

    /// Saved, the model is a GPT-2 folder; "Open in views" shows it in the Heads view as any
    /// checkpoint (its 2 layers and 4 heads, its byte tokens).
    void openInViewsShowsTheModelAsACheckpoint()
    {
        view.reset();
        // A sentence within Micro's context of 32 bytes (the lesson's is 57).
        std::unique_ptr<MainWindow> window =
            test::settledWindow(QStringLiteral("Tokuye saw Moquiste."), QSize(1280, 720));
        QVERIFY(window);
        LanguageModelView *lm = languageModelViewOf(*window);
        useMicro(lm);
        lm->stepsBox()->setValue(20);
        lm->setText("stories", stories());
        QTRY_VERIFY_WITH_TIMEOUT(!lm->isBusy() && lm->lastReport(), 60000);
        lm->train();
        QTRY_VERIFY_WITH_TIMEOUT(!lm->isBusy() && lm->stepsDone() == 20, 120000);
        QApplication::processEvents();
        // At 1280 x 720 every head of both layers is on screen under the curves: the page does
        // not scroll the second layer (where induction heads form) out of sight.
        window->showLanguageModel();
        QApplication::processEvents();
        for (int i = 0; i < lm->heatmaps()->plotCount(); ++i) {
            HeatmapPlot *plot = lm->heatmaps()->plot(i);
            const int bottom = plot->mapTo(window.get(), QPoint(0, plot->height())).y();
            QVERIFY2(plot->isVisible() && bottom <= window->height() && plot->height() >= 64,
                     qPrintable(QStringLiteral("head %1: bottom %2 of %3, %4 px")
                                    .arg(i)
                                    .arg(bottom)
                                    .arg(window->height())
                                    .arg(plot->height())));
        }

        const QString folder = dir.filePath("saved");
        QVERIFY(lm->saveTo(folder));
        QCOMPARE(QDir(folder).entryList(QDir::Files, QDir::Name),
                 (QStringList{"config.json", "headlens_training.json", "model.safetensors",
                              "tokenizer.json"}));
        QSignalSpy opened(lm, &LanguageModelView::openFolder);
        lm->findChild<QPushButton *>("lmOpenInViews")->click();
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.at(0).at(0).toString(), folder); // saved at this step already
        QCOMPARE(tabsOf(*window)->currentWidget(), viewAreaOf(*window)); // the Heads tab
        QCOMPARE(workspaceOf(*window)->state().modelPath, folder);
        QVERIFY(test::waitUntilSettled(*window));
        QTRY_VERIFY_WITH_TIMEOUT(modelsOf(*window)->controller()->run(), 20000);
        const auto &run = modelsOf(*window)->controller()->run();
        QCOMPARE(run->layers, 2);
        QCOMPARE(run->heads, 4);
        QVERIFY2(QString::fromStdString(run->name).contains("saved"),
                 run->name.c_str()); // the folder's name
    }
};

HEADLENS_TEST_MAIN(TestLanguageModelView)
#include "tst_languagemodelview.moc"
