// Tests of AttentionConfig::validate: every refusal says what is wrong and offers a fix.
#include "attention/attentionconfig.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;

class TestAttentionConfig : public QObject
{
    Q_OBJECT

private slots:
    void validConfigsPass_data();
    void validConfigsPass();
    void indivisibleWidthOffersNearestChoices_data();
    void indivisibleWidthOffersNearestChoices();
    void otherProblemsNameTheirField_data();
    void otherProblemsNameTheirField();
    void headDimensions();
};

void TestAttentionConfig::validConfigsPass_data()
{
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::addColumn<bool>("tied");
    QTest::newRow("512/8") << 512 << 8 << true;
    QTest::newRow("8/2") << 8 << 2 << true;
    QTest::newRow("10/3 untied") << 10 << 3 << false;
    QTest::newRow("1/1") << 1 << 1 << true;
}

void TestAttentionConfig::validConfigsPass()
{
    QFETCH(int, dModel);
    QFETCH(int, heads);
    QFETCH(bool, tied);
    AttentionConfig config;
    config.dModel = dModel;
    config.heads = heads;
    config.tied = tied;
    QVERIFY(!config.validate().has_value());
}

void TestAttentionConfig::indivisibleWidthOffersNearestChoices_data()
{
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::addColumn<QList<int>>("headChoices");
    QTest::addColumn<QList<int>>("widthChoices");
    QTest::newRow("10 over 3") << 10 << 3 << QList<int>{2, 5} << QList<int>{9, 12};
    QTest::newRow("512 over 6") << 512 << 6 << QList<int>{4, 8} << QList<int>{510, 516};
    QTest::newRow("7 over 2 (prime)") << 7 << 2 << QList<int>{1, 7} << QList<int>{6, 8};
}

void TestAttentionConfig::indivisibleWidthOffersNearestChoices()
{
    QFETCH(int, dModel);
    QFETCH(int, heads);
    QFETCH(QList<int>, headChoices);
    QFETCH(QList<int>, widthChoices);
    AttentionConfig config;
    config.dModel = dModel;
    config.heads = heads;
    const auto problem = config.validate();
    QVERIFY(problem.has_value());
    QCOMPARE(problem->field, std::string("heads"));
    const QString message = QString::fromStdString(problem->message);
    QVERIFY2(message.contains(
                 QString("d_model %1 cannot be split evenly over %2 heads").arg(dModel).arg(heads)),
             problem->message.c_str());
    QList<int> heads_, widths;
    for (const ConfigFix &fix : problem->fixes) {
        (fix.field == "heads" ? heads_ : widths).append(fix.value);
        QVERIFY(!fix.label.empty());
    }
    QCOMPARE(heads_, headChoices);
    QCOMPARE(widths, widthChoices);
    for (int h : headChoices)
        QVERIFY2(message.contains(QString::number(h)), problem->message.c_str());
}

void TestAttentionConfig::otherProblemsNameTheirField_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("expected");
    QTest::newRow("d_model 0") << "d_model"
                               << "d_model must be between 1";
    QTest::newRow("negative temperature") << "temperature"
                                          << "must be a positive number";
    QTest::newRow("dropout 1") << "dropout"
                               << "probability in [0, 1)";
    QTest::newRow("d_k 0") << "d_k"
                           << "d_k must be between 1";
}

void TestAttentionConfig::otherProblemsNameTheirField()
{
    QFETCH(QString, field);
    QFETCH(QString, expected);
    AttentionConfig config;
    if (field == "d_model")
        config.dModel = 0;
    if (field == "temperature") {
        config.scale = ScaleMode::Temperature;
        config.temperature = -1.0f;
    }
    if (field == "dropout")
        config.dropout = 1.0f;
    if (field == "d_k") {
        config.tied = false;
        config.dK = 0;
    }
    const auto problem = config.validate();
    QVERIFY(problem.has_value());
    QCOMPARE(QString::fromStdString(problem->field), field);
    QVERIFY2(QString::fromStdString(problem->message).contains(expected), problem->message.c_str());
}

void TestAttentionConfig::headDimensions()
{
    AttentionConfig config;
    QCOMPARE(config.headDimK(), 64); // d_model 512 / 8 heads, the lesson's numbers
    config.tied = false;
    config.dK = 5;
    config.dV = 7;
    QCOMPARE(config.headDimK(), 5);
    QCOMPARE(config.headDimV(), 7);
    config.scale = ScaleMode::Temperature;
    config.temperature = 4.0f;
    QCOMPARE(config.scaleFactor(), 0.25f);
}

HEADLENS_TEST_APPLESS_MAIN(TestAttentionConfig)
#include "tst_attentionconfig.moc"
