// Tests of TokenizerPipeline: the components run in order, and labels come from the decoder.
#include "testmain.h"
#include "text/pipeline/bpemodel.h"
#include "text/pipeline/byteleveldecoder.h"
#include "text/pipeline/splitpretokenizer.h"
#include "text/pipeline/tokenizerpipeline.h"

#include <QTest>

#include <algorithm>
#include <cctype>

using namespace headlens;

namespace {

/// A normalizer for this test only: ASCII lower case (as normalizers/utils.rs Lowercase).
class AsciiLowercase : public Normalizer
{
public:
    std::string normalize(const std::string &utf8) const override
    {
        std::string lower = utf8;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        return lower;
    }
};

/// A post-processor for this test only: a BOS id first (TemplateProcessing "<s> $A").
class PrependBos : public PostProcessor
{
public:
    explicit PrependBos(int id) : m_id(id) {}
    std::vector<TokenEncoding> process(std::vector<TokenEncoding> encodings,
                                       bool addSpecialTokens) const override
    {
        if (addSpecialTokens)
            encodings.insert(encodings.begin(), TokenEncoding{{m_id}, {0}});
        return encodings;
    }

private:
    int m_id;
};

/// h=0 i=1 hi=2 " "=3 !=4, added <s>=5 (special) and HI=6, BOS 7 from the post-processor.
TokenizerPipeline lowercasePipeline()
{
    TokenizerPipeline::Parts parts;
    parts.addedTokens = AddedTokens({{"<s>", 5, true}, {"HI", 6, false}, {"<bos>", 7, true}});
    parts.normalizer = std::make_shared<const AsciiLowercase>();
    parts.preTokenizer = std::make_shared<const SplitPreTokenizer>(
        TextPattern::regex(R"(\S+)"), SplitDelimiter::Behavior::Isolated);
    parts.model = std::make_shared<const BpeModel>(
        BpeModel::Vocabulary{{"h", 0}, {"i", 1}, {"hi", 2}, {" ", 3}, {"!", 4}},
        BpeModel::MergeList{{"h", "i"}});
    parts.postProcessor = std::make_shared<const PrependBos>(7);
    return TokenizerPipeline(std::move(parts));
}

} // namespace

class TestTokenizerPipeline : public QObject
{
    Q_OBJECT

private slots:
    void runsTheStepsInOrder_data();
    void runsTheStepsInOrder();
    void labels_data();
    void labels();
    void tokenBytesAndIds();
};

void TestTokenizerPipeline::runsTheStepsInOrder_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<std::vector<int>>("ids");
    QTest::newRow("normalized, split, merged, BOS first")
        << "Hi hI!" << std::vector<int>{7, 2, 3, 2, 4};
    // Added tokens are cut out of the raw text before the normalizer lowers it.
    QTest::newRow("added token before normalizing") << "HI hi" << std::vector<int>{7, 6, 3, 2};
    QTest::newRow("special token inside a word") << "h<s>i" << std::vector<int>{7, 0, 5, 1};
    QTest::newRow("empty text") << "" << std::vector<int>{7};
}

void TestTokenizerPipeline::runsTheStepsInOrder()
{
    QFETCH(QString, text);
    QFETCH(std::vector<int>, ids);
    QCOMPARE(lowercasePipeline().encode(text.toStdString()), ids);
}

void TestTokenizerPipeline::labels_data()
{
    QTest::addColumn<int>("id");
    QTest::addColumn<QString>("label");
    QTest::newRow("space as ␣") << 0 << "␣world";
    QTest::newRow("newline") << 1 << "⏎";
    QTest::newRow("a character's first byte") << 2 << "<0xF0>";          // never broken bytes
    QTest::newRow("two of the three bytes of ’") << 5 << "<0xE2><0x80>"; // e2 80 99
    QTest::newRow("its last byte, then a letter") << 6 << "<0x99>s";
    QTest::newRow("a whole é") << 3 << "é";
    QTest::newRow("added token as it is") << 4 << "<|endoftext|>";
    QTest::newRow("unknown id") << 9 << "[id 9]";
}

void TestTokenizerPipeline::labels()
{
    QFETCH(int, id);
    QFETCH(QString, label);
    TokenizerPipeline::Parts parts;
    parts.addedTokens = AddedTokens({{"<|endoftext|>", 4, true}});
    parts.model = std::make_shared<const BpeModel>(
        BpeModel::Vocabulary{{"Ġworld", 0}, {"Ċ", 1}, {"ð", 2}, {"Ã©", 3}, {"âĢ", 5}, {"Ļs", 6}},
        BpeModel::MergeList{});
    parts.decoder = std::make_shared<const ByteLevelDecoder>();
    QCOMPARE(QString::fromStdString(TokenizerPipeline(std::move(parts)).displayLabel(id)), label);
}

void TestTokenizerPipeline::tokenBytesAndIds()
{
    const TokenizerPipeline pipeline = lowercasePipeline();
    // Without a decoder, tokens are joined by spaces (tokenizer/mod.rs decode).
    QCOMPARE(pipeline.decode({7, 2, 3, 6}), std::string("<bos> hi   HI"));
    QCOMPARE(pipeline.encode("Hi", false), std::vector<int>{2});
    QCOMPARE(pipeline.tokenBytes(8), std::string());
    QCOMPARE(pipeline.idLimit(), 8);
    QVERIFY(pipeline.contains(5) && pipeline.contains(4) && !pipeline.contains(8));
    QCOMPARE(pipeline.idOf("HI"), 6);
    QCOMPARE(pipeline.idOf("hi"), 2);
    QVERIFY(!TokenizerPipeline().contains(0));
    QCOMPARE(TokenizerPipeline().idLimit(), 0);
}

HEADLENS_TEST_APPLESS_MAIN(TestTokenizerPipeline)
#include "tst_tokenizerpipeline.moc"
