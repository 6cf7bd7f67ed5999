// tst_startupoptions: the command line's options reach the window's workspace as app/gui/main.cpp
// applies them, and only those given change it.
#include "startupoptions.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;

class TestStartupOptions : public QObject
{
    Q_OBJECT

private slots:
    void anEncodersSentenceBFillsTheSecondBox();
    void optionsNotGivenKeepTheWorkspace();
};

namespace {

WorkspaceState applied(const std::vector<std::string> &arguments, WorkspaceState state = {})
{
    return StartupOptions(CommandLine::parse(arguments, true)).appliedTo(std::move(state));
}

} // namespace

// `headlens --model BERT --text A --text-pair B` opens with B in the second box, which the window
// reads as sentence B for a model that reads pairs (as headlens-cli does with --text-pair).
void TestStartupOptions::anEncodersSentenceBFillsTheSecondBox()
{
    const QString model = QString(HEADLENS_TEST_DATA) + "/bert/bert_mlm";
    const WorkspaceState state =
        applied({"--model", model.toStdString(), "--text", "The cat sat on the [MASK] .",
                 "--text-pair", "The dog ran."});
    QCOMPARE(state.text, QString("The cat sat on the [MASK] ."));
    QCOMPARE(state.kvText, QString("The dog ran."));
    QVERIFY(!state.crossAttention); // not keys and values from another text
    QVERIFY(state.modelPath.endsWith("bert/bert_mlm"));
}

void TestStartupOptions::optionsNotGivenKeepTheWorkspace()
{
    WorkspaceState before;
    before.text = "kept";
    before.kvText = "kept too";
    before.config.heads = 2;
    const WorkspaceState state = applied({"--heads", "4"}, before);
    QCOMPARE(state.config.heads, 4);
    QCOMPARE(state.text, QString("kept"));
    QCOMPARE(state.kvText, QString("kept too"));
}

HEADLENS_TEST_APPLESS_MAIN(TestStartupOptions)
#include "tst_startupoptions.moc"
