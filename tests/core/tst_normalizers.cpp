// Tests of the normalizers: normal forms, case, stripping, Prepend, Replace and BertNormalizer.
#include "testmain.h"
#include "text/pipeline/bertnormalizer.h"
#include "text/pipeline/lowercasenormalizer.h"
#include "text/pipeline/normalizersequence.h"
#include "text/pipeline/prependnormalizer.h"
#include "text/pipeline/replacenormalizer.h"
#include "text/pipeline/stripaccentsnormalizer.h"
#include "text/pipeline/stripnormalizer.h"
#include "text/pipeline/unicodenormalizer.h"

#include <QTest>

#include <memory>

using namespace headlens;

namespace {

std::shared_ptr<const Normalizer> normalizerNamed(const QString &name)
{
    using Form = UnicodeText::Form;
    BertNormalizer::Options bert;
    if (name == "NFC")
        return std::make_shared<UnicodeNormalizer>(Form::NFC);
    if (name == "NFD")
        return std::make_shared<UnicodeNormalizer>(Form::NFD);
    if (name == "NFKC")
        return std::make_shared<UnicodeNormalizer>(Form::NFKC);
    if (name == "NFKD")
        return std::make_shared<UnicodeNormalizer>(Form::NFKD);
    if (name == "Lowercase")
        return std::make_shared<LowercaseNormalizer>();
    if (name == "Strip")
        return std::make_shared<StripNormalizer>(true, true);
    if (name == "StripLeft")
        return std::make_shared<StripNormalizer>(true, false);
    if (name == "StripAccents")
        return std::make_shared<StripAccentsNormalizer>();
    if (name == "Prepend")
        return std::make_shared<PrependNormalizer>("\u2581");
    if (name == "ReplaceString")
        return std::make_shared<ReplaceNormalizer>(TextPattern::literal(" "), "\u2581");
    if (name == "ReplaceRegex")
        return std::make_shared<ReplaceNormalizer>(TextPattern::regex("\\s+"), " ");
    if (name == "NFD+StripAccents")
        return std::make_shared<NormalizerSequence>(std::vector<std::shared_ptr<const Normalizer>>{
            normalizerNamed("NFD"), normalizerNamed("StripAccents")});
    if (name == "BertCased")
        bert.lowercase = bert.stripAccents = false;
    return std::make_shared<BertNormalizer>(bert);
}

} // namespace

class TestNormalizers : public QObject
{
    Q_OBJECT

private slots:
    void normalizes_data();
    void normalizes();
};

void TestNormalizers::normalizes_data()
{
    QTest::addColumn<QString>("normalizer");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("normalized");
    QTest::newRow("NFC composes") << "NFC"
                                  << "cafe\u0301"
                                  << "caf\u00e9";
    QTest::newRow("NFD decomposes") << "NFD"
                                    << "caf\u00e9"
                                    << "cafe\u0301";
    QTest::newRow("NFKC folds widths and ligatures") << "NFKC"
                                                     << "\uff21\ufb01\u2460"
                                                     << "Afi1";
    QTest::newRow("NFKD folds and decomposes") << "NFKD"
                                               << "\u00bd\u00e9"
                                               << "1\u20442e\u0301";
    QTest::newRow("Lowercase, full mapping") << "Lowercase"
                                             << "\u0130A\u03a3"
                                             << "i\u0307a\u03c3";
    QTest::newRow("Strip both ends") << "Strip"
                                     << " \t a b \n"
                                     << "a b";
    QTest::newRow("Strip left only") << "StripLeft"
                                     << "\u3000 a "
                                     << "a ";
    QTest::newRow("Strip, only spaces") << "Strip"
                                        << "   "
                                        << "";
    QTest::newRow("StripAccents keeps precomposed") << "StripAccents"
                                                    << "\u00e9e\u0301"
                                                    << "\u00e9e";
    QTest::newRow("NFD then StripAccents") << "NFD+StripAccents"
                                           << "\u00c5ngstr\u00f6m"
                                           << "Angstrom";
    QTest::newRow("Prepend") << "Prepend"
                             << "Hi"
                             << "\u2581Hi";
    QTest::newRow("Prepend, empty stays empty") << "Prepend"
                                                << ""
                                                << "";
    QTest::newRow("Replace a string") << "ReplaceString"
                                      << "a b  c"
                                      << "a\u2581b\u2581\u2581c";
    QTest::newRow("Replace a regex") << "ReplaceRegex"
                                     << "a \t b\n\nc"
                                     << "a b c";
    // bert.rs: controls dropped, white space as " ", CJK spaced, NFD without Mn, lower case.
    QTest::newRow("BERT uncased") << "Bert"
                                  << "H\u00e9llo\u0007\tW\u00d6RLD\u6211"
                                  << "hello world \u6211 ";
    QTest::newRow("BERT cased keeps accents") << "BertCased"
                                              << "H\u00e9llo\u200b\r\n"
                                              << "H\u00e9llo  ";
}

void TestNormalizers::normalizes()
{
    QFETCH(QString, normalizer);
    QFETCH(QString, text);
    QFETCH(QString, normalized);
    QCOMPARE(QString::fromStdString(normalizerNamed(normalizer)->normalize(text.toStdString())),
             normalized);
}

HEADLENS_TEST_APPLESS_MAIN(TestNormalizers)
#include "tst_normalizers.moc"
