// Tests of TemplateProcessing: special tokens and type ids around one text or a pair.
#include "testmain.h"
#include "text/pipeline/templateprocessing.h"

#include <QTest>

using namespace headlens;
using Piece = TemplateProcessing::Piece;

class TestTemplateProcessing : public QObject
{
    Q_OBJECT

private slots:
    void appliesTheTemplates_data();
    void appliesTheTemplates();
};

void TestTemplateProcessing::appliesTheTemplates_data()
{
    QTest::addColumn<bool>("pair");
    QTest::addColumn<bool>("addSpecialTokens");
    QTest::addColumn<std::vector<int>>("ids");
    QTest::addColumn<std::vector<int>>("typeIds");
    // BERT: [CLS]=101 A [SEP]=102 | B:1 [SEP]:1, with A = (7, 8) and B = (9).
    QTest::newRow("single") << false << true << std::vector<int>{101, 7, 8, 102}
                            << std::vector<int>{0, 0, 0, 0};
    QTest::newRow("pair") << true << true << std::vector<int>{101, 7, 8, 102, 9, 102}
                          << std::vector<int>{0, 0, 0, 0, 1, 1};
    QTest::newRow("pair without special tokens")
        << true << false << std::vector<int>{7, 8, 9} << std::vector<int>{0, 0, 1};
}

void TestTemplateProcessing::appliesTheTemplates()
{
    QFETCH(bool, pair);
    QFETCH(bool, addSpecialTokens);
    QFETCH(std::vector<int>, ids);
    QFETCH(std::vector<int>, typeIds);
    const Piece cls{false, 0, {101}, 0}, sep{false, 0, {102}, 0}, sepB{false, 0, {102}, 1};
    const Piece a{true, 0, {}, 0}, b{true, 1, {}, 1};
    const TemplateProcessing bert({cls, a, sep}, {cls, a, sep, b, sepB});
    std::vector<TokenEncoding> encodings{{{7, 8}, {0, 0}}};
    if (pair)
        encodings.push_back({{9}, {1}});
    TokenEncoding merged;
    for (const TokenEncoding &part : bert.process(encodings, addSpecialTokens)) {
        merged.ids.insert(merged.ids.end(), part.ids.begin(), part.ids.end());
        merged.typeIds.insert(merged.typeIds.end(), part.typeIds.begin(), part.typeIds.end());
    }
    QCOMPARE(merged.ids, ids);
    QCOMPARE(merged.typeIds, typeIds);
}

HEADLENS_TEST_APPLESS_MAIN(TestTemplateProcessing)
#include "tst_templateprocessing.moc"
