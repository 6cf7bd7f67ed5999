// Tests of quotedText: hand-made byte strings come out as valid, one-line, readable UTF-8.
#include "validutf8.h"

#include "testmain.h"
#include "util/quotedtext.h"

#include <QTest>

#include <string>

using namespace headlens;
using headlens::test::isValidUtf8;

class tst_QuotedText : public QObject
{
    Q_OBJECT

private slots:
    void escapes_data();
    void escapes();
    void resultIsValidUtf8_data();
    void resultIsValidUtf8();
    void shortens_data();
    void shortens();
};

namespace {

/// A std::string from a literal that may hold NUL bytes.
template <std::size_t N> std::string bytes(const char (&literal)[N])
{
    return std::string(literal, N - 1);
}

/// The helper's result as bytes, for isValidUtf8.
QByteArray quotedBytes(const QByteArray &input, std::size_t limit)
{
    return QByteArray::fromStdString(quotedText(input.toStdString(), limit));
}

} // namespace

void tst_QuotedText::escapes_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("expected");

    const auto row = [](const char *name, const std::string &input, const char *expected) {
        QTest::newRow(name) << QByteArray::fromStdString(input) << QString::fromUtf8(expected);
    };
    row("plain ascii", "Ġt he", "Ġt he");
    row("valid multi-byte kept", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", "café € 😀");
    row("lone continuation byte", "a\x80z", "a\\x80z");
    row("latin-1 byte", "caf\xE9", "caf\\xE9");
    row("invalid lead bytes", "\xFF\xFE", "\\xFF\\xFE");
    row("overlong slash", "\xC0\xAF", "\\xC0\\xAF");
    row("overlong three bytes", "\xE0\x80\xAF", "\\xE0\\x80\\xAF");
    row("surrogate", "\xED\xA0\x80", "\\xED\\xA0\\x80");
    row("beyond U+10FFFF", "\xF4\x90\x80\x80", "\\xF4\\x90\\x80\\x80");
    row("cut short at the end", "ab\xE2\x82", "ab\\xE2\\x82");
    row("cut short by ascii", "\xE2\x82z", "\\xE2\\x82z");
    row("newline tab return", "a\nb\tc\rd", "a\\nb\\tc\\rd");
    row("nul and escape", bytes("a\0b\x1B"), "a\\x00b\\x1B");
    row("delete", "a\x7F", "a\\x7F");
    row("C1 control", "a\xC2\x85z", "a\\u0085z");
    row("line separator", "a\xE2\x80\xA8z", "a\\u2028z");
    row("right-to-left override", "a\xE2\x80\xAEz", "a\\u202Ez");
    row("backslash doubled so escapes read one way", "\\x80", "\\\\x80");
    row("empty", "", "");
}

void tst_QuotedText::escapes()
{
    QFETCH(QByteArray, input);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(quotedText(input.toStdString())), expected);
}

void tst_QuotedText::resultIsValidUtf8_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::newRow("merges line from a latin-1 file") << QByteArray("\xC4\xA0 t\xE9\xFF");
    QTest::newRow("every byte value") << [] {
        QByteArray all;
        for (int b = 0; b < 256; ++b)
            all.append(char(b));
        return all;
    }();
    QTest::newRow("valid characters, then a cut one")
        << QByteArray("\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82");
}

void tst_QuotedText::resultIsValidUtf8()
{
    QFETCH(QByteArray, input);
    QVERIFY(!isValidUtf8(input)); // each row needs quoting
    for (const std::size_t limit : {std::size_t(3), std::size_t(80), std::size_t(2000)}) {
        const QByteArray quoted = quotedBytes(input, limit);
        QVERIFY2(isValidUtf8(quoted), quoted.constData());
        QVERIFY(QString::fromUtf8(quoted).toUcs4().size() <= int(limit));
        QVERIFY(!quoted.contains('\n') && !quoted.contains('\r'));
    }
}

void tst_QuotedText::shortens_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("limit");
    QTest::addColumn<QString>("expected");

    QTest::newRow("fits exactly") << QByteArray("abcde") << 5 << QStringLiteral("abcde");
    QTest::newRow("one too many") << QByteArray("abcdef") << 5 << QStringLiteral("abcd…");
    QTest::newRow("counts characters, not bytes")
        << QByteArray("\xC3\xA9\xC3\xA9\xC3\xA9") << 3 << QStringLiteral("ééé");
    QTest::newRow("never splits an escape") << QByteArray("ab\xFF") << 5 << QStringLiteral("ab…");
    QTest::newRow("limit of one") << QByteArray("abc") << 1 << QStringLiteral("…");
}

void tst_QuotedText::shortens()
{
    QFETCH(QByteArray, input);
    QFETCH(int, limit);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(quotedText(input.toStdString(), std::size_t(limit))), expected);
}

HEADLENS_TEST_APPLESS_MAIN(tst_QuotedText)
#include "tst_quotedtext.moc"
