// tst_toymodelconfig: RoPE, GQA and dropout are off by default, and validate() says how to fix a
// combination that cannot train.
#include "testmain.h"
#include "train/languagemodelpreset.h"
#include "train/toymodelconfig.h"

#include <QTest>

#include <cmath>

using namespace headlens;

class TestToyModelConfig : public QObject
{
    Q_OBJECT

private slots:
    void optionsAreOffByDefault();
    void validateSaysHowToFix_data();
    void validateSaysHowToFix();
};

void TestToyModelConfig::optionsAreOffByDefault()
{
    const ToyModelConfig plain;
    QVERIFY(!plain.rope);
    QCOMPARE(plain.kvHeadCount(), plain.heads);
    QCOMPARE(plain.kvWidth(), plain.dModel);
    QCOMPARE(plain.dropout, 0.0f);
    for (const LanguageModelPreset &preset : LanguageModelPreset::all()) {
        QVERIFY2(!preset.model.rope && preset.model.kvHeadCount() == preset.model.heads &&
                     preset.model.dropout == 0.0f,
                 preset.name.c_str());
    }
    // h_kv = h is multi-head attention however it is said.
    ToyModelConfig explicitHeads = plain;
    explicitHeads.kvHeads = plain.heads;
    QVERIFY(explicitHeads == plain);
    explicitHeads.kvHeads = 1;
    QVERIFY(explicitHeads != plain);
}

void TestToyModelConfig::validateSaysHowToFix_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<bool>("rope");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<float>("dropout");
    QTest::addColumn<QString>("message"); // empty: valid
    QTest::newRow("GQA 4 over 2") << 4 << 64 << false << 2 << 0.0f << "";
    QTest::newRow("multi-query") << 4 << 64 << false << 1 << 0.0f << "";
    QTest::newRow("RoPE, GQA, dropout") << 4 << 64 << true << 2 << 0.1f << "";
    QTest::newRow("K/V heads not dividing")
        << 4 << 64 << false << 3 << 0.0f
        << "3 key/value heads cannot be shared evenly by 4 query heads: use one of 1, 2, 4.";
    QTest::newRow("more K/V heads than heads")
        << 4 << 64 << false << 8 << 0.0f
        << "The key/value heads must be between 1 and the 4 heads (0 means as many as heads), "
           "got 8.";
    QTest::newRow("negative K/V heads")
        << 4 << 64 << false << -1 << 0.0f
        << "The key/value heads must be between 1 and the 4 heads (0 means as many as heads), "
           "got -1.";
    QTest::newRow("RoPE on an odd head width")
        << 4 << 20 << true << 0 << 0.0f
        << "RoPE turns pairs of numbers, so each head needs an even width, but d_model 20 over 4 "
           "heads gives 5: use d_model 16 or 24, or train without RoPE.";
    QTest::newRow("dropout 1") << 4 << 64 << false << 0 << 1.0f
                               << "Dropout is a probability from 0 up to (not including) 1, got "
                                  "1: use 0.1, or 0 for none.";
    QTest::newRow("negative dropout") << 4 << 64 << false << 0 << -0.5f
                                      << "Dropout is a probability from 0 up to (not including) "
                                         "1, got -0.5: use 0.1, or 0 for none.";
    QTest::newRow("NaN dropout") << 4 << 64 << false << 0 << std::nanf("")
                                 << "Dropout is a probability from 0 up to (not including) 1, got "
                                    "nan: use 0.1, or 0 for none.";
}

void TestToyModelConfig::validateSaysHowToFix()
{
    QFETCH(int, heads);
    QFETCH(int, dModel);
    QFETCH(bool, rope);
    QFETCH(int, kvHeads);
    QFETCH(float, dropout);
    QFETCH(QString, message);
    ToyModelConfig config{2, heads, dModel, 256, 64, true, true, true};
    config.rope = rope;
    config.kvHeads = kvHeads;
    config.dropout = dropout;
    const std::optional<std::string> problem =
        config.validate(ToyModelConfig::kLanguageModelLimits);
    QCOMPARE(QString::fromStdString(problem.value_or("")), message);
}

HEADLENS_TEST_APPLESS_MAIN(TestToyModelConfig)
#include "tst_toymodelconfig.moc"
