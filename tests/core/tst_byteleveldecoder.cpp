// Tests of ByteLevelDecoder: byte-level tokens back to their bytes, one entry per token.
#include "testmain.h"
#include "text/pipeline/byteleveldecoder.h"

#include <QTest>

using namespace headlens;

class TestByteLevelDecoder : public QObject
{
    Q_OBJECT

private slots:
    void decodesEachToken_data();
    void decodesEachToken();
    void keepsTheChainLength();
};

void TestByteLevelDecoder::decodesEachToken_data()
{
    QTest::addColumn<QByteArray>("token"); // as vocab.json spells it
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("a space") << QByteArray("Ġworld") << QByteArray(" world");
    QTest::newRow("a newline") << QByteArray("Ċ") << QByteArray("\n");
    QTest::newRow("a whole é") << QByteArray("Ã©") << QByteArray("é");
    QTest::newRow("the lead byte of 👍") << QByteArray("ð") << QByteArray("\xF0");
    QTest::newRow("special token, spelled literally")
        << QByteArray("<|endoftext|>") << QByteArray("<|endoftext|>");
    QTest::newRow("not byte symbols: kept as it is") << QByteArray("我") << QByteArray("我");
}

void TestByteLevelDecoder::decodesEachToken()
{
    QFETCH(QByteArray, token);
    QFETCH(QByteArray, bytes);
    const std::vector<std::string> decoded = ByteLevelDecoder().decodeChain({token.toStdString()});
    QCOMPARE(decoded, std::vector<std::string>{bytes.toStdString()});
}

void TestByteLevelDecoder::keepsTheChainLength()
{
    // 👍 is F0 9F 91 8D: "ðŁĳį" in symbols, here split over two tokens.
    const std::vector<std::string> decoded = ByteLevelDecoder().decodeChain({"ðŁ", "ĳį", "!"});
    QCOMPARE(decoded, (std::vector<std::string>{"\xF0\x9F", "\x91\x8D", "!"}));
}

HEADLENS_TEST_APPLESS_MAIN(TestByteLevelDecoder)
#include "tst_byteleveldecoder.moc"
