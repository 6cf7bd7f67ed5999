// tst_tokenizer: word and character tokens, UTF-8 repair, line splitting and display labels.
#include "testmain.h"
#include "text/tokenizer.h"

#include <QTest>

using headlens::Tokenizer;
using headlens::TokenizerKind;

namespace {

/// Tokens joined with " | " as raw bytes, so a broken byte cannot hide behind a QString decode.
QByteArray joined(const std::vector<std::string> &parts)
{
    QByteArray text;
    for (size_t i = 0; i < parts.size(); ++i)
        text += (i ? " | " : "") + QByteArray::fromStdString(parts[i]);
    return text;
}

} // namespace

class tst_Tokenizer : public QObject
{
    Q_OBJECT

private slots:
    void words_data();
    void words();
    void characters_data();
    void characters();
    void toValidUtf8_data();
    void toValidUtf8();
    void splitLines_data();
    void splitLines();
    void displayLabel_data();
    void displayLabel();
};

void tst_Tokenizer::words_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("ascii") << QByteArray("The movie was not bad")
                           << QByteArray("The | movie | was | not | bad");
    QTest::newRow("full stop") << QByteArray("it broke.") << QByteArray("it | broke | .");
    QTest::newRow("punctuation run")
        << QByteArray("Wait, what?!") << QByteArray("Wait | , | what | ? | !");
    QTest::newRow("contraction") << QByteArray("don't panic") << QByteArray("don't | panic");
    QTest::newRow("curly contraction")
        << QByteArray("it\u2019s fine") << QByteArray("it\u2019s | fine");
    QTest::newRow("quotes are not contractions") << QByteArray("'hi'") << QByteArray("' | hi | '");
    QTest::newRow("hyphen splits") << QByteArray("well-known") << QByteArray("well | - | known");
    QTest::newRow("numbers") << QByteArray("3 cats, 3.14 pies, 1,000 times")
                             << QByteArray("3 | cats | , | 3.14 | pies | , | 1,000 | times");
    QTest::newRow("number before full stop")
        << QByteArray("It costs 42.") << QByteArray("It | costs | 42 | .");
    QTest::newRow("letters and digits") << QByteArray("GPT2 in 3D") << QByteArray("GPT2 | in | 3D");
    QTest::newRow("precomposed accent")
        << QByteArray("caf\u00e9 au lait") << QByteArray("caf\u00e9 | au | lait");
    QTest::newRow("combining accent")
        << QByteArray("cafe\u0301 noir") << QByteArray("cafe\u0301 | noir");
    QTest::newRow("cyrillic") << QByteArray("Привет, мир") << QByteArray("Привет | , | мир");
    QTest::newRow("hangul words") << QByteArray("안녕 세상") << QByteArray("안녕 | 세상");
    QTest::newRow("han") << QByteArray("我爱你") << QByteArray("我 | 爱 | 你");
    QTest::newRow("kana") << QByteArray("ひらカタ") << QByteArray("ひ | ら | カ | タ");
    QTest::newRow("number before han") << QByteArray("2024年") << QByteArray("2024 | 年");
    QTest::newRow("skin tone") << QByteArray("\U0001F44D\U0001F3FD great")
                               << QByteArray("\U0001F44D\U0001F3FD | great");
    QTest::newRow("zwj family") << QByteArray("\U0001F468\u200D\U0001F469\u200D\U0001F467")
                                << QByteArray("\U0001F468\u200D\U0001F469\u200D\U0001F467");
    QTest::newRow("two flags") << QByteArray("\U0001F1EB\U0001F1F7\U0001F1E9\U0001F1EA")
                               << QByteArray("\U0001F1EB\U0001F1F7 | \U0001F1E9\U0001F1EA");
    QTest::newRow("emoji after word")
        << QByteArray("nice\U0001F44D") << QByteArray("nice | \U0001F44D");
    QTest::newRow("white space only") << QByteArray(" \t \u3000") << QByteArray();
    QTest::newRow("invalid byte") << QByteArray("a\xff"
                                                "b")
                                  << QByteArray("a | \xEF\xBF\xBD | b");
    QTest::newRow("truncated sequence")
        << QByteArray("caf\xC3") << QByteArray("caf | \xEF\xBF\xBD");
}

void tst_Tokenizer::words()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, expected);
    QCOMPARE(joined(Tokenizer::tokenize(text.toStdString(), TokenizerKind::Words)), expected);
}

void tst_Tokenizer::characters_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("accent, space and emoji")
        << QByteArray("h\u00e9llo \U0001F44D\U0001F3FD")
        << QByteArray("h | \u00e9 | l | l | o |   | \U0001F44D\U0001F3FD");
    QTest::newRow("combining accent stays") << QByteArray("he\u0301") << QByteArray("h | e\u0301");
    QTest::newRow("spaces kept") << QByteArray("a  b") << QByteArray("a |   |   | b");
    QTest::newRow("flags") << QByteArray("\U0001F1EB\U0001F1F7\U0001F1E9\U0001F1EA")
                           << QByteArray("\U0001F1EB\U0001F1F7 | \U0001F1E9\U0001F1EA");
    QTest::newRow("crlf is one character") << QByteArray("a\r\nb") << QByteArray("a | \r\n | b");
    QTest::newRow("invalid byte") << QByteArray("a\x80") << QByteArray("a | \xEF\xBF\xBD");
}

void tst_Tokenizer::characters()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, expected);
    QCOMPARE(joined(Tokenizer::tokenize(text.toStdString(), TokenizerKind::Characters)), expected);
}

void tst_Tokenizer::toValidUtf8_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QByteArray>("expected");

    const QByteArray fffd("\xEF\xBF\xBD");
    const QByteArray valid("a\u00e9\u20ac\U0001F44D");
    QTest::newRow("valid is unchanged") << valid << valid;
    QTest::newRow("stray continuation") << QByteArray("a\x80z") << "a" + fffd + "z";
    QTest::newRow("impossible byte") << QByteArray("\xFF") << fffd;
    QTest::newRow("truncated three bytes, one mark") << QByteArray("\xE2\x82z") << fffd + "z";
    QTest::newRow("truncated four bytes at end") << QByteArray("x\xF0\x9F\x91") << "x" + fffd;
    QTest::newRow("overlong slash") << QByteArray("\xC0\xAF") << fffd + fffd;
    QTest::newRow("overlong three bytes") << QByteArray("\xE0\x80\xAF") << fffd + fffd + fffd;
    QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << fffd + fffd + fffd;
    QTest::newRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << fffd + fffd + fffd + fffd;
    QTest::newRow("lead then ascii") << QByteArray("\xC3(") << fffd + "(";
}

void tst_Tokenizer::toValidUtf8()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QByteArray, expected);
    QCOMPARE(QByteArray::fromStdString(Tokenizer::toValidUtf8(bytes.toStdString())), expected);
}

void tst_Tokenizer::splitLines_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("two lines") << QByteArray("The movie was not bad\nit broke.")
                               << QByteArray("The movie was not bad | it broke.");
    QTest::newRow("crlf") << QByteArray("a\r\nb\r\n") << QByteArray("a | b");
    QTest::newRow("lone cr") << QByteArray("a\rb") << QByteArray("a | b");
    QTest::newRow("blank lines dropped")
        << QByteArray("a\n\n  \t\n\u3000\nb") << QByteArray("a | b");
    QTest::newRow("ends trimmed, inside kept")
        << QByteArray("  one  two \t") << QByteArray("one  two");
    QTest::newRow("empty") << QByteArray() << QByteArray();
    QTest::newRow("invalid byte repaired") << QByteArray("a\xff") << QByteArray("a\xEF\xBF\xBD");
}

void tst_Tokenizer::splitLines()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, expected);
    QCOMPARE(joined(Tokenizer::splitLines(text.toStdString())), expected);
}

void tst_Tokenizer::displayLabel_data()
{
    QTest::addColumn<QByteArray>("token");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("word") << QByteArray("movie") << QByteArray("movie");
    QTest::newRow("space") << QByteArray(" ") << QByteArray("\u2423");
    QTest::newRow("no-break space") << QByteArray("\u00a0") << QByteArray("\u2423");
    QTest::newRow("ideographic space") << QByteArray("\u3000") << QByteArray("\u2423");
    QTest::newRow("newline") << QByteArray("\n") << QByteArray("\u23ce");
    QTest::newRow("crlf is one break") << QByteArray("\r\n") << QByteArray("\u23ce");
    QTest::newRow("tab") << QByteArray("\t") << QByteArray("\u21e5");
    QTest::newRow("control") << QByteArray("\x01") << QByteArray("\u2401");
    QTest::newRow("delete") << QByteArray("\x7f") << QByteArray("\u2421");
    QTest::newRow("mixed") << QByteArray("a b\tc") << QByteArray("a\u2423b\u21e5c");
    // Half of "’" (e2 80 99), as GPT-2's byte-level tokens split it: each byte as byte fallback
    // spells it, in ASCII that every font draws.
    QTest::newRow("two bytes of three") << QByteArray("\xe2\x80") << QByteArray("<0xE2><0x80>");
    QTest::newRow("the last byte") << QByteArray("\x99s") << QByteArray("<0x99>s");
    // A label is labelled again where a view reads another's labels: it must stay the same.
    QTest::newRow("a label of bytes again")
        << QByteArray("<0xE2><0x80>") << QByteArray("<0xE2><0x80>");
}

void tst_Tokenizer::displayLabel()
{
    QFETCH(QByteArray, token);
    QFETCH(QByteArray, expected);
    QCOMPARE(QByteArray::fromStdString(Tokenizer::displayLabel(token.toStdString())), expected);
}

HEADLENS_TEST_APPLESS_MAIN(tst_Tokenizer)
#include "tst_tokenizer.moc"
