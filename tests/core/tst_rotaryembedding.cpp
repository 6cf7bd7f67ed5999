// Tests of RoPE: rotations checked by hand, position 0 unturned, scores that only see i - j.
#include "approx.h"

#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"
#include "attention/rotaryembedding.h"
#include "coremetatypes.h"
#include "testmain.h"

#include <QTest>

#include <cmath>
#include <cstring>

using namespace headlens;

namespace {

const std::vector<std::string> kRotaryTexts = {
    "The tired robot dropped the heavy gear because it broke", "The bank was robbed"};

Trace ropeTrace(AttentionPositions convention, int heads, int kvHeads, int offset,
                float theta = 10000.0f)
{
    AttentionConfig config;
    config.dModel = 64;
    config.heads = heads;
    config.kvHeads = kvHeads;
    config.causal = true;
    config.attentionPositions = convention;
    config.ropeTheta = theta;
    config.ropePositionOffset = offset;
    AttentionInput input = InputBuilder::fromTexts(config, kRotaryTexts);
    const AttentionWeights weights = AttentionWeights::initialize(config, 64);
    return computeTrace(config, std::move(input), weights);
}

double largestDifference(const Tensor &a, const Tensor &b)
{
    double largest = 0.0;
    for (int64_t i = 0; i < a.numel(); ++i)
        largest = std::max(largest, std::abs(double(a.data()[i]) - double(b.data()[i])));
    return largest;
}

} // namespace

class TestRotaryEmbedding : public QObject
{
    Q_OBJECT

private slots:
    void rotatesPairsByHand_data();
    void rotatesPairsByHand();
    void frequenciesFallGeometrically();
    void conventionsArePermutationsOfEachOther();
    void positionZeroLeavesQAndKUnturned_data();
    void positionZeroLeavesQAndKUnturned();
    void shiftingEveryPositionKeepsTheScores_data();
    void shiftingEveryPositionKeepsTheScores();
};

void TestRotaryEmbedding::rotatesPairsByHand_data()
{
    QTest::addColumn<bool>("interleaved");
    QTest::addColumn<int>("row");
    QTest::addColumn<std::vector<float>>("expected");
    // d_k = 4, theta = 100: pair 0 turns 1 radian per position, pair 1 100^(-2/4) = 0.1.
    // x = (1, 2, 3, 4). Split-half pairs (0, 2) and (1, 3); interleaved (0, 1) and (2, 3).
    const double c1 = std::cos(1.0), s1 = std::sin(1.0), c2 = std::cos(0.1), s2 = std::sin(0.1);
    auto f = [](double v) { return float(v); };
    QTest::newRow("split-half, position 1")
        << false << 1
        << std::vector<float>{f(c1 - 3 * s1), f(2 * c2 - 4 * s2), f(3 * c1 + s1),
                              f(4 * c2 + 2 * s2)};
    QTest::newRow("interleaved, position 1")
        << true << 1
        << std::vector<float>{f(c1 - 2 * s1), f(2 * c1 + s1), f(3 * c2 - 4 * s2),
                              f(4 * c2 + 3 * s2)};
    const double c3 = std::cos(3.0), s3 = std::sin(3.0), c4 = std::cos(0.3), s4 = std::sin(0.3);
    QTest::newRow("interleaved, position 3 (offset 2 + row 1)")
        << true << 1
        << std::vector<float>{f(c3 - 2 * s3), f(2 * c3 + s3), f(3 * c4 - 4 * s4),
                              f(4 * c4 + 3 * s4)};
}

void TestRotaryEmbedding::rotatesPairsByHand()
{
    QFETCH(bool, interleaved);
    QFETCH(int, row);
    QFETCH(std::vector<float>, expected);
    const int offset = QByteArray(QTest::currentDataTag()).contains("offset") ? 2 : 0;
    const RotaryEmbedding rope(4, 100.0f, interleaved, 2, offset);
    float x[4] = {1, 2, 3, 4};
    rope.rotate(x, row);
    for (int i = 0; i < 4; ++i)
        HL_COMPARE_NEAR(x[i], expected[size_t(i)], 1e-6, 1e-6);
    // A rotation: the length stays.
    HL_COMPARE_NEAR(std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]),
                    std::sqrt(30.0), 1e-6, 0);
}

void TestRotaryEmbedding::frequenciesFallGeometrically()
{
    QCOMPARE(RotaryEmbedding::frequency(0, 64, 10000.0), 1.0);
    HL_COMPARE_NEAR(RotaryEmbedding::frequency(16, 64, 10000.0), 0.01, 1e-12, 0); // 10^-2
    HL_COMPARE_NEAR(RotaryEmbedding::frequency(31, 64, 10000.0), std::pow(10000.0, -62.0 / 64),
                    1e-12, 0);
    const RotaryEmbedding rope(64, 10000.0f, false, 8, 5);
    HL_COMPARE_NEAR(rope.angle(2, 16), 7 * 0.01, 1e-12, 0); // position offset 5 + row 2
    QCOMPARE(rope.firstOfPair(3), int64_t(3));
    QCOMPARE(rope.secondOfPair(3), int64_t(35));
}

// Interleaved RoPE is split-half RoPE on the dimensions ordered 0, 2, 4, ..., 1, 3, 5, ...
void TestRotaryEmbedding::conventionsArePermutationsOfEachOther()
{
    const int d = 8;
    const RotaryEmbedding half(d, 500.0f, false, 6), interleaved(d, 500.0f, true, 6);
    for (int row = 0; row < 6; ++row) {
        float x[d], permuted[d];
        for (int i = 0; i < d; ++i)
            x[i] = std::sin(1.7f * float(i + 3 * row)) + 0.25f * float(i);
        for (int i = 0; i < d / 2; ++i) {
            permuted[i] = x[2 * i];
            permuted[i + d / 2] = x[2 * i + 1];
        }
        interleaved.rotate(x, row);
        half.rotate(permuted, row);
        for (int i = 0; i < d / 2; ++i) {
            QCOMPARE(permuted[i], x[2 * i]);
            QCOMPARE(permuted[i + d / 2], x[2 * i + 1]);
        }
    }
}

void TestRotaryEmbedding::positionZeroLeavesQAndKUnturned_data()
{
    QTest::addColumn<AttentionPositions>("convention");
    QTest::newRow("split-half") << AttentionPositions::Rope;
    QTest::newRow("interleaved") << AttentionPositions::RopeInterleaved;
}

// Angle 0 at position 0: cos 1, sin 0, so row 0 of q_rot and k_rot is q_heads' and k_heads' bit
// for bit, and every later row is turned.
void TestRotaryEmbedding::positionZeroLeavesQAndKUnturned()
{
    QFETCH(AttentionPositions, convention);
    const Trace trace = ropeTrace(convention, 4, 2, 0);
    for (auto [turned, plain] : {std::pair{keys::qRot, keys::qHeads}, {keys::kRot, keys::kHeads}}) {
        const Tensor &r = trace.tensor(turned), &x = trace.tensor(plain);
        QCOMPARE(r.shape(), x.shape());
        for (int64_t b = 0; b < 2; ++b)
            for (int64_t head = 0; head < x.shape().size(1); ++head) {
                const auto a = r.matrix({b, head}), e = x.matrix({b, head});
                QVERIFY(std::memcmp(a.row(0).data(), e.row(0).data(), sizeof(float) * 16) == 0);
                QVERIFY(a.row(3) != e.row(3));
                HL_COMPARE_NEAR(a.row(3).norm(), e.row(3).norm(), 1e-5, 1e-6);
            }
    }
    QCOMPARE(trace.step("rotate")->outputs.size(), size_t(2));
    QVERIFY(trace.step("scores")->inputs[0] == keys::qRot);
}

void TestRotaryEmbedding::shiftingEveryPositionKeepsTheScores_data()
{
    QTest::addColumn<AttentionPositions>("convention");
    QTest::addColumn<int>("shift");
    QTest::addColumn<int>("kvHeads");
    QTest::newRow("split-half, s=1") << AttentionPositions::Rope << 1 << 4;
    QTest::newRow("split-half, s=37, GQA 4/2") << AttentionPositions::Rope << 37 << 2;
    QTest::newRow("split-half, s=1000") << AttentionPositions::Rope << 1000 << 4;
    QTest::newRow("interleaved, s=5") << AttentionPositions::RopeInterleaved << 5 << 4;
    QTest::newRow("interleaved, s=4096, MQA") << AttentionPositions::RopeInterleaved << 4096 << 1;
}

// RoPE's point: q_m . k_n depends on m - n only. Every position moved by s turns q and k
// differently but leaves the scores equal up to float rounding.
void TestRotaryEmbedding::shiftingEveryPositionKeepsTheScores()
{
    QFETCH(AttentionPositions, convention);
    QFETCH(int, shift);
    QFETCH(int, kvHeads);
    const Trace at0 = ropeTrace(convention, 4, kvHeads, 0);
    const Trace shifted = ropeTrace(convention, 4, kvHeads, shift);
    QVERIFY(largestDifference(at0.tensor(keys::qRot), shifted.tensor(keys::qRot)) > 1e-2);
    const double scores = largestDifference(at0.tensor(keys::scores), shifted.tensor(keys::scores));
    QVERIFY2(scores <= 1e-5, QByteArray::number(scores, 'g', 3));
    QVERIFY(largestDifference(at0.tensor(keys::attentionWeights),
                              shifted.tensor(keys::attentionWeights)) <= 1e-5);
    QVERIFY(largestDifference(at0.tensor(keys::output), shifted.tensor(keys::output)) <= 1e-5);
}

HEADLENS_TEST_APPLESS_MAIN(TestRotaryEmbedding)
#include "tst_rotaryembedding.moc"
