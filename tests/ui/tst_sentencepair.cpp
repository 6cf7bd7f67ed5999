// tst_sentencepair: once an encoder's run is shown, the second text box is "Sentence B", it can
// be typed in, and its text goes into the job the runner submits; for a decoder and the
// built-in layer the box keeps its cross-attention meaning.
#include "encoderrun.h"

#include "models/modelbox.h"
#include "models/modelcontroller.h"
#include "panels/controlspanel.h"
#include "runner/jobbuilder.h"
#include "selection/selection.h"
#include "testmain.h"
#include "window/modelwiring.h"
#include "workspace/workspace.h"

#include <QCheckBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTextDocument>

using namespace headlens;
using namespace headlens::test;

namespace {

const QString kModel = "/models/bert-base-uncased"; // never opened: the job only names it

} // namespace

class TestSentencePair : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<Workspace> workspace;
    std::unique_ptr<Selection> selection;
    std::unique_ptr<ControlsPanel> controls;
    std::unique_ptr<ModelWiring> models;

    QLabel *sentenceBLabel() const { return controls->findChild<QLabel *>("sentenceBLabel"); }
    QCheckBox *cross() const { return controls->findChild<QCheckBox *>("cross"); }
    QPlainTextEdit *secondBox() const { return controls->findChild<QPlainTextEdit *>("kv_text"); }
    bool shown(QWidget *w) const { return w->isVisibleTo(controls.get()); }
    std::vector<std::string> jobKvTexts() const
    {
        return JobBuilder::jobFor(workspace->state())->kvTexts;
    }
    // A run arriving from the runner, as TraceRunner::modelRunReady hands it over.
    void showRun(std::shared_ptr<const ModelRun> run)
    {
        models->controller()->setRun(std::move(run));
    }

private slots:
    void init()
    {
        workspace = std::make_unique<Workspace>();
        selection = std::make_unique<Selection>();
        controls = std::make_unique<ControlsPanel>(workspace.get());
        models = std::make_unique<ModelWiring>(workspace.get(), selection.get());
        controls->insertBox(models->box());
        workspace->setText("the cat sat");
        workspace->setKvText("it slept");
        workspace->setModel(kModel, 0);
    }
    void cleanup()
    {
        models.reset();
        controls.reset();
        selection.reset();
        workspace.reset();
    }

    // Before any run says the model reads pairs, the box is cross-attention's, off.
    void theSecondBoxStartsAsCrossAttention()
    {
        QVERIFY(shown(cross()));
        QVERIFY(!shown(sentenceBLabel()));
        QVERIFY(!secondBox()->isEnabled());
        QVERIFY(jobKvTexts().empty());
    }

    void anEncodersRunMakesItSentenceB()
    {
        QSignalSpy recompute(workspace.get(), &Workspace::inputChanged);
        showRun(pairRun(1, 1));
        QVERIFY(shown(sentenceBLabel()));
        QCOMPARE(sentenceBLabel()->text(), QString("Sentence B"));
        QVERIFY(sentenceBLabel()->toolTip().contains("[CLS] A [SEP] B [SEP]"));
        QVERIFY(!shown(cross()));
        QVERIFY(secondBox()->isEnabled());
        QCOMPARE(secondBox()->placeholderText(), QString("Sentence B, read after the text above"));
        // The run just shown read A alone: B is added and the text computed again.
        QCOMPARE(recompute.count(), 1);
        QCOMPARE(jobKvTexts(), std::vector<std::string>{"it slept"});
        // Above the token strip, the legend of its bands.
        QTextDocument note;
        note.setHtml(models->note()->text());
        QCOMPARE(note.toPlainText(),
                 QString("hand-made BERT · layer 0 of 1 · 8 tokens: ▬ sentence A ▬ B"));
    }

    // Typing in the box recomputes with the new sentence B, without any checkbox.
    void typingSentenceBReachesTheJob()
    {
        showRun(pairRun(1, 1));
        QSignalSpy recompute(workspace.get(), &Workspace::inputChanged);
        secondBox()->clear();
        QTest::keyClicks(secondBox(), "it purred");
        QCOMPARE(workspace->state().kvText, QString("it purred"));
        QVERIFY(recompute.count() > 0);
        QCOMPARE(jobKvTexts(), std::vector<std::string>{"it purred"});
    }

    // A decoder opened next: the box is cross-attention's again and B is no longer sent.
    void aDecoderGivesTheBoxBack()
    {
        showRun(pairRun(1, 1));
        showRun(decoderRun(1, 1, 1));
        QVERIFY(shown(cross()));
        QVERIFY(!shown(sentenceBLabel()));
        QVERIFY(!secondBox()->isEnabled());
        QVERIFY(jobKvTexts().empty());
    }

    // The built-in layer (no run) reads the box only with Cross-attention ticked.
    void theBuiltInLayerKeepsCrossAttention()
    {
        showRun(pairRun(1, 1));
        models->controller()->useBuiltIn();
        showRun(nullptr);
        QVERIFY(shown(cross()));
        QVERIFY(jobKvTexts().empty());
        cross()->setChecked(true);
        QVERIFY(secondBox()->isEnabled());
        QCOMPARE(jobKvTexts(), std::vector<std::string>{"it slept"});
    }

    // A workspace file or an example opened while the encoder is shown keeps sentence B.
    void openingAWorkspaceKeepsTheMeaning()
    {
        showRun(pairRun(1, 1));
        WorkspaceState state;
        state.text = "a dog barked";
        state.kvText = "it ran";
        state.modelPath = kModel;
        workspace->setState(state);
        QVERIFY(shown(sentenceBLabel()));
        QCOMPARE(secondBox()->toPlainText(), QString("it ran"));
        QCOMPARE(jobKvTexts(), std::vector<std::string>{"it ran"});
    }
};

HEADLENS_TEST_MAIN(TestSentencePair)
#include "tst_sentencepair.moc"
