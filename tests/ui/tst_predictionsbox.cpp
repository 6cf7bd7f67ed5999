// tst_predictionsbox: the Model tab's predictions: each [MASK]'s five most probable fillers for
// an encoder, the note of a checkpoint without an MLM head, the hint when the text has no mask,
// and a decoder's next tokens as before.
#include "encoderrun.h"

#include "models/predictionsbox.h"
#include "models/predictionspanel.h"
#include "testmain.h"

#include <QScrollArea>
#include <QTest>
#include <QTextDocument>

using namespace headlens;
using namespace headlens::test;

namespace {

// The title as a person reads it (the label is rich text).
QString plainTitle(const PredictionsBox &box)
{
    QTextDocument document;
    document.setHtml(box.title());
    return document.toPlainText();
}

std::vector<TokenPrediction> candidates(const std::vector<std::pair<std::string, double>> &list)
{
    std::vector<TokenPrediction> out;
    for (const auto &[label, p] : list)
        out.push_back({int(out.size()), label, p, 0.0f});
    return out;
}

} // namespace

class TestPredictionsBox : public QObject
{
    Q_OBJECT

private slots:
    // Two masks at tokens 3 and 6 (counted from 0), six candidates each: five are listed, in
    // the order and with the percentages the model gave.
    void eachMaskListsItsFiveFillers()
    {
        auto run = pairRun(1, 1);
        run->tokens[3] = run->tokens[6] = "[MASK]";
        run->maskFills = {{3, candidates({{"sat", 0.412},
                                          {"slept", 0.2},
                                          {"lay", 0.1},
                                          {"was", 0.05},
                                          {"stood", 0.025},
                                          {"ran", 0.0125}})},
                          {6, candidates({{"purred", 0.6},
                                          {"ate", 0.3},
                                          {"left", 0.05},
                                          {"slept", 0.02},
                                          {"won", 0.015},
                                          {"sang", 0.001}})}};
        PredictionsBox box;
        box.setRun(*run);
        QCOMPARE(plainTitle(box), QString("Masked tokens"));
        QCOMPARE(box.panel()->rowTexts(),
                 QStringList({"t4 [MASK]", "sat  41.2 %", "slept  20.0 %", "lay  10.0 %",
                              "was  5.0 %", "stood  2.5 %", "t7 [MASK]", "purred  60.0 %",
                              "ate  30.0 %", "left  5.0 %", "slept  2.0 %", "won  1.5 %"}));
        QVERIFY(box.findChild<QScrollArea *>()->isVisibleTo(&box));
    }

    // RoBERTa's mask is "<mask>": the headings and the hint use the run's own token.
    void theRunsMaskTokenNamesTheMasks()
    {
        auto run = pairRun(1, 1);
        run->maskToken = "<mask>";
        run->maskFills = {{2, candidates({{"dog", 0.9}})}};
        PredictionsBox box;
        box.setRun(*run);
        QCOMPARE(box.panel()->rowTexts(), QStringList({"t3 <mask>", "dog  90.0 %"}));
        run->maskFills.clear();
        box.setRun(*run);
        QCOMPARE(plainTitle(box),
                 QString("Masked tokens\nWrite <mask> in the text to see what the model would "
                         "put there"));
        QVERIFY(box.panel()->rowTexts().isEmpty());
    }

    void anEncoderWithoutMasksGetsTheHint()
    {
        PredictionsBox box;
        box.setRun(*pairRun(1, 1));
        QCOMPARE(plainTitle(box),
                 QString("Masked tokens\nWrite [MASK] in the text to see what the model would "
                         "put there"));
        QVERIFY(!box.findChild<QScrollArea *>()->isVisibleTo(&box));
    }

    // A checkpoint without an MLM head says so and lists nothing, even with a mask in the text.
    void noMaskHeadIsANote()
    {
        auto run = pairRun(1, 1);
        run->noMaskHead = "This checkpoint has no masked-language-model head (cls.predictions).";
        run->maskFills = {{3, candidates({{"sat", 0.5}})}};
        PredictionsBox box;
        box.setRun(*run);
        QCOMPARE(plainTitle(box),
                 QString("Masked tokens\nThis checkpoint has no masked-language-model head "
                         "(cls.predictions)."));
        QVERIFY(box.panel()->rowTexts().isEmpty());
    }

    void aDecoderShowsItsNextTokens()
    {
        PredictionsBox box;
        box.setRun(*decoderRun(1, 1, 1));
        QCOMPARE(plainTitle(box), QString("Next token after “ slept”"));
        QCOMPARE(box.panel()->rowTexts(),
                 QStringList({" soundly  50.0 %", ".  25.0 %", " well  12.5 %"}));
        QCOMPARE(box.panel()->labels(), QStringList({" soundly", ".", " well"}));
    }
};

HEADLENS_TEST_MAIN(TestPredictionsBox)
#include "tst_predictionsbox.moc"
