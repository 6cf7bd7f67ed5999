// Tests of the decoders: a whole chain (decode) and one token inside a text (labels).
#include "testmain.h"
#include "text/pipeline/bytefallbackdecoder.h"
#include "text/pipeline/decodersequence.h"
#include "text/pipeline/fusedecoder.h"
#include "text/pipeline/metaspacedecoder.h"
#include "text/pipeline/replacedecoder.h"
#include "text/pipeline/stripdecoder.h"
#include "text/pipeline/wordpiecedecoder.h"

#include <QTest>

#include <memory>

using namespace headlens;

namespace {

std::shared_ptr<const Decoder> decoderNamed(const QString &name)
{
    using Scheme = MetaspacePreTokenizer::PrependScheme;
    if (name == "ByteFallback")
        return std::make_shared<ByteFallbackDecoder>();
    if (name == "Metaspace")
        return std::make_shared<MetaspaceDecoder>("\u2581", Scheme::Always);
    if (name == "MetaspaceNever")
        return std::make_shared<MetaspaceDecoder>("\u2581", Scheme::Never);
    if (name == "WordPiece")
        return std::make_shared<WordPieceDecoder>("##", true);
    if (name == "Strip")
        return std::make_shared<StripDecoder>(" ", 1, 1);
    // Llama 2's: Replace "▁" by " ", ByteFallback, Fuse, Strip one leading space.
    return std::make_shared<DecoderSequence>(std::vector<std::shared_ptr<const Decoder>>{
        std::make_shared<ReplaceDecoder>(TextPattern::literal("\u2581"), " "),
        std::make_shared<ByteFallbackDecoder>(), std::make_shared<FuseDecoder>(),
        std::make_shared<StripDecoder>(" ", 1, 0)});
}

QStringList listOf(const std::vector<std::string> &texts)
{
    QStringList list;
    for (const std::string &text : texts)
        list << QString::fromStdString(text);
    return list;
}

} // namespace

class TestDecoders : public QObject
{
    Q_OBJECT

private slots:
    void decodesChains_data();
    void decodesChains();
    void decodesOneToken_data();
    void decodesOneToken();
};

void TestDecoders::decodesChains_data()
{
    QTest::addColumn<QString>("decoder");
    QTest::addColumn<QStringList>("tokens");
    QTest::addColumn<QStringList>("decoded");
    QTest::newRow("byte run that is UTF-8")
        << "ByteFallback" << QStringList{"a", "<0xC3>", "<0xA9>"} << QStringList{"a", "\u00e9"};
    QTest::newRow("byte run that is not") << "ByteFallback" << QStringList{"<0xC3>", "<0x41>", "b"}
                                          << QStringList{"\ufffd", "\ufffd", "b"};
    QTest::newRow("Metaspace drops the first ▁")
        << "Metaspace" << QStringList{"\u2581Hi", "\u2581you"} << QStringList{"Hi", " you"};
    QTest::newRow("Metaspace never")
        << "MetaspaceNever" << QStringList{"\u2581Hi"} << QStringList{" Hi"};
    QTest::newRow("WordPiece") << "WordPiece" << QStringList{"un", "##aff", "##able", "it", "."}
                               << QStringList{"un", "aff", "able", " it", "."};
    QTest::newRow("Strip start and stop")
        << "Strip" << QStringList{"  a  ", "b"} << QStringList{" a ", "b"};
    QTest::newRow("Llama 2") << "Llama2"
                             << QStringList{"\u2581Hello", "\u2581", "<0x0A>", "\u2581w"}
                             << QStringList{"Hello \n w"};
}

void TestDecoders::decodesChains()
{
    QFETCH(QString, decoder);
    QFETCH(QStringList, tokens);
    QFETCH(QStringList, decoded);
    std::vector<std::string> chain;
    for (const QString &token : tokens)
        chain.push_back(token.toStdString());
    QCOMPARE(listOf(decoderNamed(decoder)->decodeChain(chain)), decoded);
}

void TestDecoders::decodesOneToken_data()
{
    QTest::addColumn<QString>("decoder");
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("text");
    QTest::newRow("a byte that is a character") << "ByteFallback"
                                                << "<0x41>"
                                                << "A";
    QTest::newRow("part of a character keeps its name") << "ByteFallback"
                                                        << "<0xE4>"
                                                        << "<0xE4>";
    QTest::newRow("not a byte token") << "ByteFallback"
                                      << "<0xZZ>"
                                      << "<0xZZ>";
    QTest::newRow("Metaspace inside a text") << "Metaspace"
                                             << "\u2581Hi"
                                             << " Hi";
    // WordPiece marks continuations, not word starts: a token alone is its spelling.
    QTest::newRow("WordPiece continuation") << "WordPiece"
                                            << "##ing"
                                            << "##ing";
    QTest::newRow("WordPiece word start") << "WordPiece"
                                          << "the"
                                          << "the";
    QTest::newRow("Llama 2 word") << "Llama2"
                                  << "\u2581Hello"
                                  << " Hello";
    QTest::newRow("Llama 2 newline byte") << "Llama2"
                                          << "<0x0A>"
                                          << "\n";
}

void TestDecoders::decodesOneToken()
{
    QFETCH(QString, decoder);
    QFETCH(QString, token);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(decoderNamed(decoder)->decodeToken(token.toStdString())), text);
}

HEADLENS_TEST_APPLESS_MAIN(TestDecoders)
#include "tst_decoders.moc"
