// Tests of ByteLevelAlphabet: GPT-2's bytes_to_unicode() table, worked out by hand, and its round
// trip.
#include "testmain.h"
#include "text/pipeline/bytelevelalphabet.h"

#include <QTest>

#include <set>

using namespace headlens;

class TestByteLevelAlphabet : public QObject
{
    Q_OBJECT

private slots:
    void symbolOfByte_data();
    void symbolOfByte();
    void roundTripsEveryByte();
    void refusesOtherCharacters_data();
    void refusesOtherCharacters();
};

void TestByteLevelAlphabet::symbolOfByte_data()
{
    // encoder.py: the 188 printable bytes stand for themselves; the 68 others, in byte order,
    // for U+0100 on: 0..32 -> U+0100..U+0120, 127 -> U+0121, 128..160 -> U+0122..U+0142,
    // 173 (soft hyphen) -> U+0143.
    QTest::addColumn<int>("byte");
    QTest::addColumn<QString>("symbol");
    QTest::newRow("NUL") << 0 << QString(QChar(0x100));
    QTest::newRow("newline") << 10 << QStringLiteral("Ċ");
    QTest::newRow("space") << 32 << QStringLiteral("Ġ");
    QTest::newRow("!") << 33 << QStringLiteral("!");
    QTest::newRow("~") << 126 << QStringLiteral("~");
    QTest::newRow("DEL") << 127 << QString(QChar(0x121));
    QTest::newRow("0x80") << 128 << QString(QChar(0x122));
    QTest::newRow("NBSP") << 160 << QString(QChar(0x142));
    QTest::newRow("0xA1") << 161 << QString(QChar(0xA1));
    QTest::newRow("soft hyphen") << 173 << QString(QChar(0x143));
    QTest::newRow("0xC3, lead of é") << 0xC3 << QStringLiteral("Ã");
    QTest::newRow("0xFF") << 255 << QString(QChar(0xFF));
}

void TestByteLevelAlphabet::symbolOfByte()
{
    QFETCH(int, byte);
    QFETCH(QString, symbol);
    const ByteLevelAlphabet alphabet;
    QCOMPARE(QString::fromStdString(alphabet.symbol(static_cast<unsigned char>(byte))), symbol);
}

void TestByteLevelAlphabet::roundTripsEveryByte()
{
    const ByteLevelAlphabet alphabet;
    std::string all;
    std::set<std::string> symbols;
    for (int b = 0; b < 256; ++b) {
        const std::string &symbol = alphabet.symbol(static_cast<unsigned char>(b));
        std::string bytes;
        QVERIFY2(alphabet.toBytes(symbol, bytes), qPrintable(QString::number(b)));
        QCOMPARE(bytes, std::string(1, char(b)));
        const QString text = QString::fromStdString(symbol);
        QCOMPARE(text.size(), 1); // one character, visible and not a space
        QVERIFY(text.at(0).isPrint() && !text.at(0).isSpace());
        symbols.insert(symbol);
        all += char(b);
    }
    QCOMPARE(symbols.size(), size_t(256));
    std::string back;
    QVERIFY(alphabet.toBytes(alphabet.toSymbols(all), back));
    QCOMPARE(back, all);
    QCOMPARE(alphabet.toSymbols(" world\n"), std::string("Ġworld\xC4\x8A"));
}

void TestByteLevelAlphabet::refusesOtherCharacters_data()
{
    QTest::addColumn<QByteArray>("symbols");
    QTest::newRow("CJK, three UTF-8 bytes") << QByteArray("我");
    QTest::newRow("U+0144, one past the table") << QByteArray("\xC5\x84");
    QTest::newRow("a soft hyphen itself (U+00AD)") << QByteArray("\xC2\xAD");
    QTest::newRow("a space itself") << QByteArray("a b");
    QTest::newRow("a stray continuation byte") << QByteArray("\x84");
}

void TestByteLevelAlphabet::refusesOtherCharacters()
{
    QFETCH(QByteArray, symbols);
    std::string bytes;
    QVERIFY(!ByteLevelAlphabet().toBytes(symbols.toStdString(), bytes));
}

HEADLENS_TEST_APPLESS_MAIN(TestByteLevelAlphabet)
#include "tst_bytelevelalphabet.moc"
