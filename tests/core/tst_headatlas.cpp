// Tests the head atlas on heads whose attention is made by hand: each pattern scores 1 on its
// own score and is named by it, a head that attends evenly scores exactly its chance and is
// named nothing, and the probes are what the atlas says they are.
#include "attention/attentionforward.h"
#include "model/headatlasprobe.h"
#include "stats/offsetscores.h"
#include "testmain.h"
#include "train/headscores.h"
#include "util/inputerror.h"

#include <QTest>

#include <cctype>
#include <cmath>
#include <mutex>

using namespace headlens;

namespace {

/// The hand-made heads, one per pattern; `Even` attends evenly to what it sees.
enum Pattern
{
    Previous,
    Induction,
    Duplicate,
    First,
    Offset3,
    Even,
    Cls,
    Sep,
};

/// A model whose heads attend by hand-made rules: Previous puts all its weight on i - 1,
/// Induction on the token after the last earlier copy of the query's token, Duplicate on that
/// copy, First on token 0, Offset3 on i - 3; where a rule has no key, the head attends evenly.
class HandMadeModel : public OpenedModel
{
public:
    HandMadeModel(std::vector<Pattern> patterns, int heads, bool causal, bool bos)
        : m_patterns(std::move(patterns)), m_heads(heads), m_causal(causal), m_bos(bos)
    {}

    using OpenedModel::run; // run() without interventions
    std::string family() const override { return "hand-made"; }
    std::string name() const override { return "hand-made model"; }
    int layers() const override { return int(m_patterns.size()) / m_heads; }
    int maxTokens() const override { return 64; }
    std::vector<int> encode(const std::string &text) const override
    {
        std::vector<int> ids = encodePiece(text);
        if (m_bos)
            ids.insert(ids.begin(), kBos);
        if (!m_causal) // an encoder's [CLS] ... [SEP]
            ids.push_back(kSep);
        return ids;
    }
    std::vector<int> encodePiece(const std::string &text) const override
    {
        std::vector<int> ids;
        for (char c : text)
            ids.push_back((unsigned char)c % 90);
        return ids;
    }
    ProbePool probePool() const override
    {
        std::vector<int> ids(90);
        for (int id = 0; id < 90; ++id)
            ids[size_t(id)] = id;
        return {ids, RunKind::RandomTokens};
    }
    std::string tokenLabel(int id) const override
    {
        if (id == kBos || id == kSep)
            return id == kBos ? "[CLS]" : "[SEP]";
        // encodePiece's ids of ASCII punctuation are their codes: "," stays a comma.
        return std::ispunct(id) ? std::string(1, char(id)) : std::string(1, char('a' + id % 26));
    }

    std::shared_ptr<ModelRun> run(const ModelInput &input, int,
                                  const HeadInterventions &interventions,
                                  const std::function<bool(double)> &progress) const override
    {
        if (progress && !progress(1.0))
            throw Cancelled();
        const std::vector<int> &ids = input.tokenIds;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_inputs.push_back(ids);
        }
        const auto n = int64_t(ids.size());
        auto run = std::make_shared<ModelRun>();
        run->layers = layers();
        run->interventions = interventions;
        run->heads = m_heads;
        run->causal = m_causal;
        run->tokenIds = ids;
        for (int id : ids)
            run->tokens.push_back(tokenLabel(id));
        run->roles = TokenRoles::of(ids, run->tokens, m_causal ? -1 : kBos, m_causal ? -1 : kSep);
        run->attention = Tensor(Shape{{"L", run->layers}, {"h", m_heads}, {"n", n}, {"n", n}});
        for (size_t index = 0; index < m_patterns.size(); ++index) {
            auto weights =
                run->attention.matrix({int64_t(index) / m_heads, int64_t(index) % m_heads});
            weights = pattern(m_patterns[index], ids);
            HeadStats stats = computeHeadStats(weights, n, n);
            run->roles.addShares(weights, n, n, stats);
            run->stats.push_back(stats);
        }
        return run;
    }
    using OpenedModel::importance;
    HeadImportance importance(const ModelInput &, const ImportanceAblation &,
                              const std::function<bool(double)> &) const override
    {
        return {};
    }
    PatchingMap patching(const ModelInput &, const ModelInput &, const PatchingQuestion &,
                         const std::function<bool(double)> &) const override
    {
        return {};
    }

    /// Every input run() was given, in order.
    std::vector<std::vector<int>> inputs() const { return m_inputs; }

    static constexpr int kBos = 99, kSep = 98;

private:
    RowMatrix pattern(Pattern kind, const std::vector<int> &ids) const
    {
        const int n = int(ids.size());
        RowMatrix w = uniformAttention(n, m_causal);
        for (int i = 0; i < n; ++i) {
            int key = -1;
            switch (kind) {
            case Previous:
                key = i - 1;
                break;
            case First:
            case Cls:
                key = 0;
                break;
            case Sep:
                key = n - 1;
                break;
            case Offset3:
                key = i - 3;
                break;
            case Induction:
            case Duplicate:
                // As the scores count them: an earlier copy j < i (induction: j + 1 < i).
                for (int j = 0; j + (kind == Induction ? 1 : 0) < i; ++j)
                    if (ids[size_t(j)] == ids[size_t(i)])
                        key = kind == Induction ? j + 1 : j;
                break;
            case Even:
                break;
            }
            if (key < 0 || (m_causal && key > i))
                continue;
            w.row(i).setZero();
            w(i, key) = 1.0f;
        }
        return w;
    }

    std::vector<Pattern> m_patterns;
    int m_heads;
    bool m_causal, m_bos;
    mutable std::mutex m_mutex;
    mutable std::vector<std::vector<int>> m_inputs;
};

const std::string kAtlasText = "the cat sat on the mat, and the dog sat on the log";

} // namespace

class TestHeadAtlas : public QObject
{
    Q_OBJECT

private slots:
    void handMadeScores();
    void eachPatternNamesItsHead();
    void anEvenHeadScoresChance();
    void probesAreRepeatedRunsInTheModelsWrapping();
    void encodersNameClsAndSep();
    void anAblatedRunIsReadUnchanged();
    void aOneTokenTextIsRefused();
    void cancelStops();
};

// The score functions on single matrices, against values worked out by hand.
void TestHeadAtlas::handMadeScores()
{
    RowMatrix previous = RowMatrix::Zero(4, 4);
    previous(0, 0) = previous(1, 0) = previous(2, 1) = previous(3, 2) = 1.0f;
    QCOMPARE(previousTokenScore(previous), 1.0);
    // Tokens a b a b: queries 2 and 3 repeat; duplicates are keys 0 and 1, inductions 1 and 2.
    const std::vector<int> abab{0, 1, 0, 1};
    RowMatrix even = uniformAttention(4, true);
    QCOMPARE(even(3, 1), 0.25f);
    QVERIFY(std::abs(duplicateTokenScore(even, abab) - (1.0 / 3 + 1.0 / 4) / 2) < 1e-7);
    // Query 2 (a) has its copy at 0, so its induction key is 1 (weight 1/3); query 3 (b) has
    // its copy at 1, key 2 (weight 1/4).
    QVERIFY(std::abs(inductionScore(even, abab) - (1.0 / 3 + 1.0 / 4) / 2) < 1e-7);
    // An offset-2 head: w[i, i-2] = 1 for i >= 2, the first two rows on themselves.
    RowMatrix back2 = RowMatrix::Identity(5, 5);
    for (int i = 2; i < 5; ++i) {
        back2.row(i).setZero();
        back2(i, i - 2) = 1.0f;
    }
    const OffsetScore strongest = strongestOffset(back2, true);
    QCOMPARE(strongest.offset, 2);
    QCOMPARE(strongest.share, 1.0);
    // Local: the weight on keys 2..4 away beyond the largest one: a fixed offset has none.
    QCOMPARE(localShare(back2, true), 0.0);
    // Spread evenly over keys 2, 3 and 4 back: 2/3 of each row beyond its largest third.
    RowMatrix spread = RowMatrix::Zero(6, 6);
    for (int i = 0; i < 6; ++i) {
        const int keys = std::max(0, std::min(3, i - 1)); // keys 2..4 back that exist
        if (keys == 0)
            spread(i, i) = 1.0f;
        for (int d = 2; d < 2 + keys; ++d)
            spread(i, i - d) = 1.0f / float(keys);
    }
    // Rows 2..5 have 1, 2, 3, 3 such keys: beyond the largest, 0, 1/2, 2/3 and 2/3.
    QVERIFY(std::abs(localShare(spread, true) - (0.0 + 0.5 + 2.0 / 3 + 2.0 / 3) / 4) < 1e-6);
    // Not causal: an offset ahead is found as negative.
    RowMatrix ahead = RowMatrix::Identity(6, 6);
    for (int i = 0; i + 3 < 6; ++i) {
        ahead.row(i).setZero();
        ahead(i, i + 3) = 1.0f;
    }
    QCOMPARE(strongestOffset(ahead, false).offset, -3);
}

void TestHeadAtlas::eachPatternNamesItsHead()
{
    const HandMadeModel model({Previous, Induction, Duplicate, First, Offset3, Even}, 3, true,
                              true);
    const std::shared_ptr<ModelRun> text = model.run(model.encode(kAtlasText), 0, nullptr);
    const HeadAtlas atlas = computeHeadAtlas(model, *text, AtlasProbe(), nullptr);
    QCOMPARE(atlas.layers, 2);
    QCOMPARE(atlas.heads, 3);
    QCOMPARE(atlas.score(AtlasScore::PreviousToken, 0, 0), 1.0);
    QCOMPARE(atlas.score(AtlasScore::Induction, 0, 1), 1.0);
    QCOMPARE(atlas.score(AtlasScore::DuplicateToken, 0, 2), 1.0);
    QCOMPARE(atlas.score(AtlasScore::FirstToken, 1, 0), 1.0);
    QCOMPARE(atlas.score(AtlasScore::Offset, 1, 1), 1.0);
    QCOMPARE(atlas.offsets[4], 3);
    const std::vector<std::optional<AtlasScore>> expected{
        AtlasScore::PreviousToken, AtlasScore::Induction, AtlasScore::DuplicateToken,
        AtlasScore::FirstToken,    AtlasScore::Offset,    std::nullopt};
    for (size_t column = 0; column < expected.size(); ++column)
        QVERIFY2(
            atlas.types[column] == expected[column],
            qPrintable(QString("head %1: %2")
                           .arg(column)
                           .arg(atlas.types[column] ? toString(*atlas.types[column]) : "none")));
    // A decoder's text has no [CLS] or [SEP]: not measured; the text has punctuation.
    QVERIFY(std::isnan(atlas.score(AtlasScore::Cls, 0, 0)));
    QVERIFY(std::isnan(atlas.chance[size_t(AtlasScore::Sep)]));
    QVERIFY(!std::isnan(atlas.score(AtlasScore::Punctuation, 0, 0)));
}

// What a head that attends evenly scores is each score's chance, and the chances are what a
// hand computation gives: the previous-token chance over the probe's n = 1 + 48 tokens is the
// mean over i = 1..48 of 1 / (i + 1); the first token's over the text is the mean over
// i = 0..n-1 of 1 / (i + 1).
void TestHeadAtlas::anEvenHeadScoresChance()
{
    const HandMadeModel model({Even, Previous}, 2, true, true);
    const std::shared_ptr<ModelRun> text = model.run(model.encode(kAtlasText), 0, nullptr);
    const HeadAtlas atlas = computeHeadAtlas(model, *text, AtlasProbe(), nullptr);
    for (int k = 0; k < kAtlasScores; ++k) {
        const double score = atlas.score(AtlasScore(k), 0, 0), chance = atlas.chance[size_t(k)];
        if (std::isnan(chance)) {
            QVERIFY(std::isnan(score));
            continue;
        }
        QVERIFY2(std::abs(score - chance) < 1e-6, qPrintable(QString("%1: %2 against chance %3")
                                                                 .arg(toString(AtlasScore(k)))
                                                                 .arg(score)
                                                                 .arg(chance)));
    }
    double previous = 0.0;
    for (int i = 1; i <= 48; ++i)
        previous += 1.0 / (i + 1);
    QVERIFY(std::abs(atlas.chance[size_t(AtlasScore::PreviousToken)] - previous / 48) < 1e-6);
    const int n = int(text->tokenIds.size());
    double first = 0.0;
    for (int i = 0; i < n; ++i)
        first += 1.0 / (i + 1);
    QVERIFY(std::abs(atlas.chance[size_t(AtlasScore::FirstToken)] - first / n) < 1e-6);
    QCOMPARE(atlas.textTokens, n);
}

void TestHeadAtlas::probesAreRepeatedRunsInTheModelsWrapping()
{
    const HandMadeModel model({Previous}, 1, true, true);
    const std::shared_ptr<ModelRun> text = model.run(model.encode(kAtlasText), 0, nullptr);
    AtlasProbe probe;
    probe.runs = 3;
    probe.seed = 7;
    const HeadAtlas atlas = computeHeadAtlas(model, *text, probe, nullptr);
    QCOMPARE(atlas.repeatedRuns, 3);
    QCOMPARE(atlas.repeatedLength, AtlasProbe::kLength);
    const std::vector<std::vector<int>> inputs = model.inputs();
    QCOMPARE(int(inputs.size()), 1 + 3); // the text, then the probes
    for (size_t r = 1; r < inputs.size(); ++r) {
        const std::vector<int> &ids = inputs[r];
        QCOMPARE(int(ids.size()), 1 + 2 * AtlasProbe::kLength);
        QCOMPARE(ids.front(), HandMadeModel::kBos);
        QVERIFY(std::equal(ids.begin() + 1, ids.begin() + 1 + AtlasProbe::kLength,
                           ids.begin() + 1 + AtlasProbe::kLength));
        QVERIFY(ids != inputs[1] || r == 1); // each run its own tokens
    }
}

// An encoder's [CLS] is its first token: the first-token score is left out (NaN) so that the
// [CLS] score names the head; the [SEP] head is named by [SEP].
void TestHeadAtlas::encodersNameClsAndSep()
{
    const HandMadeModel model({Cls, Sep, Previous}, 3, false, true);
    const std::shared_ptr<ModelRun> text = model.run(model.encode(kAtlasText), 0, nullptr);
    const HeadAtlas atlas = computeHeadAtlas(model, *text, AtlasProbe(), nullptr);
    QVERIFY(std::isnan(atlas.score(AtlasScore::FirstToken, 0, 0)));
    QCOMPARE(atlas.score(AtlasScore::Cls, 0, 0), 1.0);
    QCOMPARE(atlas.score(AtlasScore::Sep, 0, 1), 1.0);
    // A bidirectional head that attends evenly gives [CLS] 1 / n of each row.
    QVERIFY(std::abs(atlas.chance[size_t(AtlasScore::Cls)] - 1.0 / text->tokenIds.size()) < 1e-6);
    QVERIFY(atlas.type(0, 0) == AtlasScore::Cls);
    QVERIFY(atlas.type(0, 1) == AtlasScore::Sep);
    QVERIFY(atlas.type(0, 2) == AtlasScore::PreviousToken);
    // The probes end in [SEP] as the model's texts do.
    QCOMPARE(model.inputs().back().back(), HandMadeModel::kSep);
}

// The atlas is of the model as it is: a text run that ablated a head (the CLI's --ablate, the
// window's ablations) is run again without the ablation before its scores are read, as the
// repeated-token probes always are.
void TestHeadAtlas::anAblatedRunIsReadUnchanged()
{
    const HandMadeModel model({Previous}, 1, true, true);
    const std::shared_ptr<ModelRun> ablated =
        model.run(model.encode(kAtlasText), 0, HeadInterventions::ablating(0, 0), nullptr);
    computeHeadAtlas(model, *ablated, AtlasProbe(), nullptr);
    const std::vector<std::vector<int>> inputs = model.inputs();
    QCOMPARE(int(inputs.size()), 1 + 1 + AtlasProbe().runs); // the ablated run, again, probes
    QCOMPARE(inputs[1], ablated->tokenIds);
}

void TestHeadAtlas::aOneTokenTextIsRefused()
{
    const HandMadeModel model({Previous}, 1, true, false);
    const std::shared_ptr<ModelRun> text = model.run(model.encode("a"), 0, nullptr);
    try {
        computeHeadAtlas(model, *text, AtlasProbe(), nullptr);
        QFAIL("a one-token text gave an atlas");
    } catch (const InputError &error) {
        QVERIFY2(QString(error.what()).contains("at least 2 tokens"), error.what());
    }
}

void TestHeadAtlas::cancelStops()
{
    const HandMadeModel model({Previous}, 1, true, false);
    const std::shared_ptr<ModelRun> text = model.run(model.encode(kAtlasText), 0, nullptr);
    int calls = 0;
    bool cancelled = false;
    try {
        computeHeadAtlas(model, *text, AtlasProbe(), [&](double) { return ++calls < 2; });
    } catch (const Cancelled &) {
        cancelled = true;
    }
    QVERIFY(cancelled);
    QCOMPARE(calls, 2);                      // the second probe run asked, and nothing ran after it
    QCOMPARE(int(model.inputs().size()), 2); // the text and the first probe
}

HEADLENS_TEST_APPLESS_MAIN(TestHeadAtlas)
#include "tst_headatlas.moc"
