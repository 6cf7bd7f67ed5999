// tst_languagemodel: the pieces of training a language model on a text: the text's checks, the
// presets, sampling, and the repeated-runs probe of in-context copying.
#include "errorof.h"

#include "stories/storygenerator.h"
#include "testmain.h"
#include "train/languagemodelpreset.h"
#include "train/repeatedtokens.h"
#include "train/storyprobe.h"
#include "train/tokensampler.h"
#include "train/trainer.h"
#include "train/trainingmemory.h"
#include "train/trainingtext.h"
#include "util/inputerror.h"

#include <QTest>

using namespace headlens;
using namespace headlens::test;

Q_DECLARE_METATYPE(ToyModelConfig)

class TestLanguageModel : public QObject
{
    Q_OBJECT

private slots:
    void badTextsAreRefusedWithWhatToDo_data();
    void badTextsAreRefusedWithWhatToDo();
    void presetsAreTheIssuesSizes();
    void greedySamplesAreTheMostLikelyTokens();
    void repeatedRunsAreTwoCopiesOfTextTokens();
    void aModelThatCopiesHasASecondCopyLossFarBelowTheFirst();
    void memoryCountsEveryParameter_data();
    void memoryCountsEveryParameter();
    void memoryTooLargeIsRefusedWithTheSizes();
    void storyProbeAveragesEveryWindowsRelations_data();
    void storyProbeAveragesEveryWindowsRelations();
};

void TestLanguageModel::badTextsAreRefusedWithWhatToDo_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("empty") << QByteArray() << "story.txt is empty: choose a plain-text file";
    QTest::newRow("binary") << QByteArray("abc\0def", 7)
                            << "story.txt looks binary (a zero byte at offset 3)";
    QTest::newRow("Latin-1") << QByteArray("caf\xe9 au lait")
                             << "story.txt is not UTF-8 text (byte 3 starts no character)";
}

void TestLanguageModel::badTextsAreRefusedWithWhatToDo()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    try {
        TrainingText::check(text.toStdString(), "story.txt");
        QFAIL("accepted");
    } catch (const InputError &error) {
        QVERIFY2(QString::fromStdString(error.what()).startsWith(expected), error.what());
    }
    TrainingText::check("caf\xc3\xa9 \xe2\x80\x94 na\xc3\xafve", "utf8.txt"); // UTF-8 is fine
}

void TestLanguageModel::presetsAreTheIssuesSizes()
{
    const auto tiny = LanguageModelPreset::named("Tiny");
    QVERIFY(tiny);
    QCOMPARE(tiny->model.layers, 2);
    QCOMPARE(tiny->model.heads, 4);
    QCOMPARE(tiny->model.dModel, 128);
    QCOMPARE(tiny->model.maxLength, 64);
    const auto small = LanguageModelPreset::named("small");
    QVERIFY(small);
    QCOMPARE(small->model.layers, 4);
    QCOMPARE(small->model.dModel, 192);
    QCOMPARE(small->model.maxLength, 128);
    QVERIFY(!LanguageModelPreset::named("huge"));
    QCOMPARE(LanguageModelPreset::names(), std::string("micro, tiny or small"));
    const auto micro = LanguageModelPreset::named("micro");
    QVERIFY(micro && micro->model.layers == 2 && micro->model.heads == 4);
    QCOMPARE(micro->model.dModel, 64);
    QCOMPARE(micro->model.maxLength, 32);
    const TrainingSettings s = tiny->settings(256, 2000, 7);
    QVERIFY(!s.validateLanguageModel());
    QCOMPARE(s.model.vocabulary, 256);
    QCOMPARE(s.warmupSteps, 100);
    QCOMPARE(s.decaySteps, 1900); // the rate reaches its floor at the last step
    QVERIFY(s.model.layerNorm && s.model.mlp && s.model.tiedEmbedding); // GPT-2's block
}

void TestLanguageModel::greedySamplesAreTheMostLikelyTokens()
{
    const ToyModelConfig config{2, 2, 16, 12, 8, true, true, true};
    const ToyModel model(config, ToyParameters::initialize(config, 5));
    const std::vector<int> prompt = {3, 1, 4, 1, 5};
    const std::vector<int> sample = sampleTokens(model, prompt, 6, 0.0f, 1);
    QCOMPARE(int(sample.size()), 6);
    std::vector<int> context = prompt;
    for (int token : sample) {
        // The window slides: at most maxLength (8) tokens are read.
        const std::vector<int> window(context.end() - std::min<long>(long(context.size()), 8),
                                      context.end());
        ToyModel::Activations acts;
        model.forward(window, 1, int(window.size()), acts);
        Eigen::Index best = 0;
        acts.logits.row(acts.logits.rows() - 1).maxCoeff(&best);
        QCOMPARE(token, int(best));
        context.push_back(token);
    }
    QCOMPARE(sampleTokens(model, prompt, 6, 1.0f, 9), sampleTokens(model, prompt, 6, 1.0f, 9));
}

void TestLanguageModel::repeatedRunsAreTwoCopiesOfTextTokens()
{
    const std::vector<int> pool = {7, 8, 9};
    const ToyBatch batch = repeatedTokens(pool, 9, 3, 2); // an odd length keeps 2 * 4
    QCOMPARE(batch.length, 8);
    QCOMPARE(batch.count, 3);
    for (int s = 0; s < 3; ++s)
        for (int i = 0; i < 4; ++i) {
            const int token = batch.tokens[size_t(s * 8 + i)];
            QVERIFY(token >= 7 && token <= 9);
            QCOMPARE(batch.tokens[size_t(s * 8 + i + 4)], token);
        }
    QCOMPARE(batch.targets[1], batch.tokens[2]);
    QCOMPARE(batch.targets[7], -1);

    // The control: sequence s's second half after sequence s+1's first.
    const ToyBatch control = unrepeated(batch);
    for (int s = 0; s < 3; ++s)
        for (int i = 0; i < 8; ++i)
            QCOMPARE(control.tokens[size_t(s * 8 + i)],
                     batch.tokens[size_t((i < 4 ? (s + 1) % 3 : s) * 8 + i)]);
    QCOMPARE(control.targets[3], batch.tokens[4]); // across the splice
    QCOMPARE(control.targets[4], batch.targets[4]);

    // A stretch of text: consecutive tokens of the pool.
    std::vector<int> counting(100);
    for (int i = 0; i < 100; ++i)
        counting[size_t(i)] = i;
    const ToyBatch segments = repeatedTokens(counting, 16, 4, 3, RunKind::TextSegment);
    for (int s = 0; s < 4; ++s)
        for (int i = 1; i < 8; ++i)
            QCOMPARE(segments.tokens[size_t(s * 16 + i)],
                     segments.tokens[size_t(s * 16 + i - 1)] + 1);
}

/// A model trained on nothing but repeated runs learns to copy: its loss on a repeated half
/// drops far below the loss on the same half after another run (which stays near log 40 =
/// 3.7 nats, nothing to copy), and a head attends to the token after the earlier occurrence.
void TestLanguageModel::aModelThatCopiesHasASecondCopyLossFarBelowTheFirst()
{
    std::vector<int> pool(40);
    for (int i = 0; i < 40; ++i)
        pool[size_t(i)] = i;
    std::vector<int> text;
    for (int chunk = 0; chunk < 200; ++chunk) {
        const ToyBatch run = repeatedTokens(pool, 16, 1, uint64_t(chunk) + 100);
        text.insert(text.end(), run.tokens.begin(), run.tokens.end());
    }
    TrainingSettings settings;
    settings.model = {2, 2, 32, 40, 16, true, false, true};
    settings.learningRate = 3e-3f;
    settings.batchSize = 16;
    settings.heldOutSize = 16;
    auto batches = std::make_shared<TextBatches>(text, 16);
    Trainer trainer(settings, batches);
    const InContextScores before = trainer.inContext();
    QVERIFY2(qAbs(before.copyingGain()) < 0.5, std::to_string(before.copyingGain()).c_str());
    trainer.step(400);
    const InContextScores after = trainer.inContext();
    QVERIFY2(
        after.repeatedLoss < 0.5 * after.unrepeatedLoss,
        (std::to_string(after.unrepeatedLoss) + " " + std::to_string(after.repeatedLoss)).c_str());
    // Every repeat here is 8 tokens back, so one layer can copy by position alone; the score
    // still says a head looks at the token after the earlier occurrence.
    const double strongest = *std::max_element(after.induction.begin(), after.induction.end());
    QVERIFY2(strongest > 0.5, std::to_string(strongest).c_str());
}

/// TrainingMemory counts the parameters from the sizes alone: as many as the model allocates.
void TestLanguageModel::memoryCountsEveryParameter_data()
{
    QTest::addColumn<ToyModelConfig>("config");
    for (const LanguageModelPreset &preset : LanguageModelPreset::all())
        QTest::newRow(preset.name.c_str()) << preset.model;
    ToyModelConfig attentionOnly = LanguageModelPreset::named("tiny")->model;
    attentionOnly.mlp = false;
    QTest::newRow("attention-only") << attentionOnly;
    ToyModelConfig options = LanguageModelPreset::named("micro")->model;
    options.rope = true; // no position table
    options.kvHeads = 2; // K and V for two heads, not four
    options.dropout = 0.1f;
    QTest::newRow("rope, gqa, dropout") << options;
    // The toy tasks' model: no LayerNorm, no MLP, its own unembedding and bias.
    QTest::newRow("toy") << ToyModelConfig{2, 2, 32, 24, 16, false, false, false};
}

void TestLanguageModel::memoryCountsEveryParameter()
{
    QFETCH(ToyModelConfig, config);
    TrainingSettings s;
    s.model = config;
    s.batchSize = 16;
    int64_t allocated = 0;
    for (const auto &view : ToyParameters::initialize(config, 1).views(config.layerNorm))
        allocated += view.size();
    const TrainingMemory memory = TrainingMemory::of(s);
    QCOMPARE(memory.parameters, allocated);
    QCOMPARE(memory.parameterBytes, uint64_t(allocated) * 16); // weights, grads, m, v
    // At least the logits and their gradient of one batch (16 x n tokens x V floats, twice).
    QVERIFY(memory.activationBytes >= uint64_t(16 * config.maxLength * config.vocabulary) * 8);
}

/// Sizes that cannot fit are refused before anything is allocated, with both numbers.
void TestLanguageModel::memoryTooLargeIsRefusedWithTheSizes()
{
    TrainingSettings s = LanguageModelPreset::named("tiny")->settings(256, 100, 0);
    const TrainingMemory memory = TrainingMemory::of(s);
    QCOMPARE(errorOf([&] { memory.check(memory.total()); }), QStringLiteral("(no error)"));
    QCOMPARE(errorOf([&] { memory.check(0); }), QStringLiteral("(no error)")); // unknown
    const QString message = errorOf([&] { memory.check(1 << 20); });
    QVERIFY2(message.startsWith("Training this model needs about ") &&
                 message.contains(" is available. Choose fewer layers, a smaller d_model, a "
                                  "shorter context or a smaller batch.") &&
                 message.contains("1.0 MiB"),
             qPrintable(message));
}

/// storyProbe over 16 windows equals relationScores on each window's attention, weighted by
/// their relation counts, with one byte per token and with a BPE (whose tokens' byte spans are
/// added up here from each token's bytes, not taken from TrainingTokens).
void TestLanguageModel::storyProbeAveragesEveryWindowsRelations_data()
{
    QTest::addColumn<int>("bpeVocabulary");
    QTest::newRow("bytes") << 0;
    QTest::newRow("bpe 512") << 512;
}

void TestLanguageModel::storyProbeAveragesEveryWindowsRelations()
{
    QFETCH(int, bpeVocabulary);
    const int n = 64;
    const StoryText story = StoryGenerator(1).generate(20000);
    const TrainingTokens tokens = bpeVocabulary > 0 ? TrainingTokens::bpe(story.text, bpeVocabulary)
                                                    : TrainingTokens::bytes(story.text);
    const ToyModelConfig config{1, 2, 16, tokens.vocabulary(), n, true, true, true};
    const ToyModel model(config, ToyParameters::initialize(config, 2));
    const std::vector<int> &ids = tokens.ids();
    std::vector<size_t> offsets{0};
    for (int id : ids)
        offsets.push_back(offsets.back() + tokens.decode({id}).size());
    QCOMPARE(offsets.back(), story.text.size());
    const size_t from = 300;
    const int windows = 16;
    const auto probed = storyProbe(model, tokens, story.relations, from, windows);
    QCOMPARE(int(probed.size()), 2);
    const size_t room = ids.size() - from - size_t(n);
    for (int head = 0; head < 2; ++head)
        for (size_t kind = 0; kind < 3; ++kind) {
            double sum = 0.0;
            int count = 0;
            for (int w = 0; w < windows; ++w) { // evenly spaced, the last one ends the text
                const size_t start = from + room * size_t(w) / size_t(windows - 1);
                const std::vector<int> window(ids.begin() + long(start),
                                              ids.begin() + long(start) + n);
                std::vector<std::pair<size_t, size_t>> spans;
                for (size_t i = start; i < start + size_t(n); ++i)
                    spans.push_back({offsets[i], offsets[i + 1]});
                std::vector<StoryRelation> inside;
                for (const StoryRelation &r : story.relations)
                    if (r.sourceBegin >= offsets[start] &&
                        r.sourceEnd <= offsets[start + size_t(n)])
                        inside.push_back(r);
                ToyModel::Activations acts;
                model.forward(window, 1, n, acts);
                const auto one = relationScores(acts.attention(0, head, 0), spans, inside);
                sum += one[kind].score * one[kind].count;
                count += one[kind].count;
            }
            QCOMPARE(probed[size_t(head)][kind].count, count);
            if (count > 0)
                QVERIFY(qAbs(probed[size_t(head)][kind].score - sum / count) < 1e-6);
        }
    int total = 0;
    for (const auto &kind : probed[0])
        total += kind.count;
    QVERIFY2(total >= 4, std::to_string(total).c_str()); // 16 windows of stories hold some
}

HEADLENS_TEST_APPLESS_MAIN(TestLanguageModel)
#include "tst_languagemodel.moc"
