// tst_languagemodelcheck: the one check before a language model trains: memory, then the text.
#include "train/languagemodelcheck.h"

#include "errorof.h"
#include "testmain.h"
#include "train/languagemodelpreset.h"
#include "train/textbatches.h"
#include "train/trainingmemory.h"

#include <QTest>

using namespace headlens;
using headlens::test::errorOf;

class TestLanguageModelCheck : public QObject
{
    Q_OBJECT

private slots:
    void check_data();
    void check();
};

void TestLanguageModelCheck::check_data()
{
    QTest::addColumn<int>("memoryMargin"); ///< bytes free beyond the estimate (-1: one short)
    QTest::addColumn<int>("tokenMargin");  ///< tokens beyond the context's minimum (-1: short)
    QTest::addColumn<QString>("starts");   ///< how the message starts; "" for no error
    QTest::newRow("fits") << 1 << 0 << "";
    QTest::newRow("memory unknown, text long enough") << 0 << 5 << "";
    QTest::newRow("too little memory") << -1 << 0 << "Training this model needs about";
    QTest::newRow("text one token short") << 1 << -1 << "story.txt: The text is too short";
    QTest::newRow("both: the memory first") << -1 << -1 << "Training this model needs about";
}

void TestLanguageModelCheck::check()
{
    QFETCH(int, memoryMargin);
    QFETCH(int, tokenMargin);
    QFETCH(QString, starts);
    const TrainingSettings s = LanguageModelPreset::named("tiny")->settings(256, 10, 1);
    const uint64_t estimate = TrainingMemory::of(s).total();
    const uint64_t available = memoryMargin == 0 ? 0 : estimate + uint64_t(int64_t(memoryMargin));
    const size_t tokens = TextBatches::minimumTokens(s.model.maxLength) + size_t(tokenMargin);
    const QString message =
        errorOf([&] { checkLanguageModelRun(s, tokens, "story.txt", available); });
    if (starts.isEmpty())
        QCOMPARE(message, QStringLiteral("(no error)"));
    else
        QVERIFY2(message.startsWith(starts), qPrintable(message));
}

HEADLENS_TEST_APPLESS_MAIN(TestLanguageModelCheck)
#include "tst_languagemodelcheck.moc"
