// tst_trainingtokens: a training text as bytes and as a BPE learned from it: the ids, where each
// token lies in the text, the samples decoded, the saved tokenizer, and the refusals.
#include "errorof.h"

#include "folderfiles.h"
#include "stories/storygenerator.h"
#include "testmain.h"
#include "text/tokenizerjson.h"
#include "train/trainingtokens.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace headlens;
using namespace headlens::test;

namespace {

std::vector<int> idsOf(const QJsonValue &value)
{
    std::vector<int> ids;
    for (const QJsonValue &id : value.toArray())
        ids.push_back(id.toInt());
    return ids;
}

} // namespace

class TestTrainingTokens : public QObject
{
    Q_OBJECT

private slots:
    /// One token per byte, id = byte, and a saved tokenizer that gives the same ids.
    void bytesAreTheirOwnIds()
    {
        const std::string text = "Mira saw \"it\".\n¿Qué?";
        const TrainingTokens tokens = TrainingTokens::bytes(text);
        QCOMPARE(tokens.vocabulary(), 256);
        QCOMPARE(tokens.ids().size(), text.size());
        QCOMPARE(tokens.ids()[0], int('M'));
        QCOMPARE(tokens.ids()[15], 0xC2); // the first byte of "¿"
        QCOMPARE(tokens.begin(15), size_t(15));
        QCOMPARE(tokens.spans(4, 2), (std::vector<std::pair<size_t, size_t>>{{4, 5}, {5, 6}}));
        QCOMPARE(tokens.decode(tokens.ids()), text);
        QCOMPARE(tokens.labels()[' '], std::string("␣"));
        QCOMPARE(tokens.labels()['\n'], std::string("⏎"));
        QCOMPARE(tokens.name(), std::string("bytes"));
        QCOMPARE(TokenizerJson::fromText(tokens.tokenizerJson(), "saved").encode(text, false),
                 tokens.ids());
    }

    /// A BPE learned from the committed test text gives, on the golden's test strings, the ids
    /// Hugging Face's BpeTrainer and tokenizer give (tests/data/bpe, make_bpe_goldens.mjs); on
    /// the text itself, tokens whose bytes spell it again and whose spans add up.
    void bpeMatchesHuggingFace_data()
    {
        QTest::addColumn<QString>("golden");
        QTest::addColumn<double>("tokensPerByte"); // at most (measured: 0.72, 0.32, 0.28)
        QTest::newRow("test text, 300") << "training_text.vocab300.json" << 0.8;
        QTest::newRow("test text, 1000") << "training_text.vocab1000.json" << 0.4;
        QTest::newRow("stories, 1024") << "stories.vocab1024.json" << 0.33;
    }
    void bpeMatchesHuggingFace()
    {
        QFETCH(QString, golden);
        QFETCH(double, tokensPerByte);
        const QJsonObject json =
            QJsonDocument::fromJson(test::readFile(HEADLENS_TEST_DATA "/bpe/" + golden)).object();
        const std::string text =
            test::readFile(HEADLENS_TEST_DATA "/" + json["text"].toString()).toStdString();
        const int vocabulary = json["settings"]["vocab_size"].toInt();
        const TrainingTokens tokens = TrainingTokens::bpe(text, vocabulary);
        QCOMPARE(tokens.vocabulary(), vocabulary);
        QCOMPARE(tokens.name(), "BPE of " + std::to_string(vocabulary) + " tokens");
        const TokenizerPipeline saved = TokenizerJson::fromText(tokens.tokenizerJson(), "saved");
        for (const QJsonValue &sample : json["cases"].toArray())
            QCOMPARE(saved.encode(sample["text"].toString().toStdString()), idsOf(sample["ids"]));

        const std::vector<int> &ids = tokens.ids();
        QVERIFY2(double(ids.size()) <= tokensPerByte * double(text.size()),
                 std::to_string(ids.size()).c_str());
        QCOMPARE(tokens.decode(ids), text);
        size_t at = 0;
        for (size_t i = 0; i < ids.size(); ++i) {
            QCOMPARE(tokens.begin(i), at);
            at += tokens.decode({ids[i]}).size();
        }
        QCOMPARE(tokens.begin(ids.size()), text.size());
        QCOMPARE(tokens.labels().size(), size_t(vocabulary));
    }

    /// The stories' golden is made from the first 100 kB of the default corpus (the stories
    /// --train-lm and the window train on: seed 0), so the BPE above is the default corpus's.
    void storiesGoldenIsTheDefaultCorpus()
    {
        const QByteArray committed = test::readFile(HEADLENS_TEST_DATA "/bpe/stories.txt");
        const std::string stories = StoryGenerator(0).generate(size_t(2) << 20).text;
        QVERIFY(committed.size() >= 100000);
        QCOMPARE(committed.toStdString(), stories.substr(0, size_t(committed.size())));
    }

    void refusals_data()
    {
        QTest::addColumn<int>("vocabulary");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const QString range = "A BPE vocabulary holds the 256 byte symbols and <|endoftext|>, and "
                              "at most 4096 tokens train here: choose 257 to 4096, not %1.";
        QTest::newRow("below the bytes") << 256 << "hello hello" << range.arg(256);
        QTest::newRow("above 4096") << 5000 << "hello hello" << range.arg(5000);
        // "hello" and "Ġhello": four merges make "hello" in both, a fifth "Ġhello"; then every
        // word is one token: 257 + 5.
        QTest::newRow("more than the text fills")
            << 400 << "hello hello"
            << "The vocabulary has 262 tokens, not the 400 asked for: the text allows only 5 "
               "merges (every word is one token by then). Train on more text or ask for fewer "
               "tokens.";
    }
    void refusals()
    {
        QFETCH(int, vocabulary);
        QFETCH(QString, text);
        QFETCH(QString, message);
        QCOMPARE(errorOf([&] { TrainingTokens::bpe(text.toStdString(), vocabulary); }), message);
    }
};

HEADLENS_TEST_APPLESS_MAIN(TestTrainingTokens)
#include "tst_trainingtokens.moc"
