// tst_gradcheck: every backward of the toy model against central finite differences (double).
#include "approx.h"

#include "testmain.h"
#include "train/toymodel.h"
#include "train/trainops.h"
#include "util/counterrandom.h"

#include <QTest>

#include <functional>

using namespace headlens;

namespace {

using M = MatrixT<double>;
using Ops = TrainOps<double>;

M randomMatrix(Eigen::Index rows, Eigen::Index cols, uint64_t stream, double bound = 1.0)
{
    const CounterRandom random(7, stream);
    M m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = double(random.symmetric(uint64_t(i), 1.0f)) * bound;
    return m;
}

/// One operation under test: inputs, a scalar loss of them, and the backward's gradients.
struct GradCase
{
    std::vector<M> inputs;
    std::function<double(const std::vector<M> &)> loss;
    std::function<std::vector<M>(const std::vector<M> &)> gradients;
};

/// sum(R * f(x)) for a fixed random R: its gradient with respect to f(x) is R.
double project(const M &out, const M &r)
{
    return (out.array() * r.array()).sum();
}

VectorT<double> asVector(const M &m)
{
    return Eigen::Map<const VectorT<double>>(m.data(), m.size());
}

GradCase makeCase(const QByteArray &op)
{
    const int n = 5, d = 6, dk = 3, vocab = 7;
    const std::vector<int> ids = {3, 0, 6, 3, 1};
    const std::vector<int> targets = {2, -1, 0, 6, 3};
    if (op == "embedding") {
        const M r = randomMatrix(n, d, 99);
        return {{randomMatrix(vocab, d, 1)},
                [=](const auto &in) { return project(Ops::gatherRows(in[0], ids), r); },
                [=](const auto &in) {
                    M dTable = M::Zero(in[0].rows(), in[0].cols());
                    Ops::gatherRowsBackward(r, ids, dTable);
                    return std::vector<M>{dTable};
                }};
    }
    if (op == "projection") {
        const M r = randomMatrix(n, 3 * dk, 99);
        return {
            {randomMatrix(n, d, 1), randomMatrix(3 * dk, d, 2), randomMatrix(3 * dk, 1, 3)},
            [=](const auto &in) { return project(Ops::linear(in[0], in[1], asVector(in[2])), r); },
            [=](const auto &in) {
                M dW = M::Zero(in[1].rows(), in[1].cols());
                VectorT<double> db = VectorT<double>::Zero(in[2].rows());
                const M dX = Ops::linearBackward(r, in[0], in[1], dW, db);
                return std::vector<M>{dX, dW, M(db)};
            }};
    }
    if (op == "scaled scores") {
        const M r = randomMatrix(n, n, 99);
        return {{randomMatrix(n, dk, 1), randomMatrix(n, dk, 2)},
                [=](const auto &in) { return project(Ops::scaledScores(in[0], in[1], 0.577), r); },
                [=](const auto &in) {
                    M dQ, dK;
                    Ops::scaledScoresBackward(r, in[0], in[1], 0.577, dQ, dK);
                    return std::vector<M>{dQ, dK};
                }};
    }
    if (op == "softmax" || op == "causal mask + softmax") {
        const bool masked = op != "softmax";
        const M r = randomMatrix(n, n, 99);
        const auto forward = [masked](const M &s) {
            return Ops::softmaxRows(masked ? Ops::causalMask(s) : s);
        };
        return {{randomMatrix(n, n, 1, 3.0)},
                [=](const auto &in) { return project(forward(in[0]), r); },
                [=](const auto &in) {
                    const M dS = Ops::softmaxRowsBackward(r, forward(in[0]));
                    return std::vector<M>{masked ? Ops::causalMaskBackward(dS) : dS};
                }};
    }
    if (op == "weighted sum") {
        const M r = randomMatrix(n, dk, 99);
        return {{randomMatrix(n, n, 1), randomMatrix(n, dk, 2)},
                [=](const auto &in) { return project(Ops::weightedSum(in[0], in[1]), r); },
                [=](const auto &in) {
                    M dP, dV;
                    Ops::weightedSumBackward(r, in[0], in[1], dP, dV);
                    return std::vector<M>{dP, dV};
                }};
    }
    if (op == "concat") {
        const M r = randomMatrix(n, 3 * dk, 99);
        return {{randomMatrix(n, dk, 1), randomMatrix(n, dk, 2), randomMatrix(n, dk, 3)},
                [=](const auto &in) { return project(Ops::concatHeads(in), r); },
                [=](const auto &) { return Ops::concatHeadsBackward(r, 3); }};
    }
    if (op == "layernorm") {
        const M r = randomMatrix(n, d, 99);
        const auto forward = [](const std::vector<M> &in, LayerNormCacheT<double> &cache) {
            return Ops::layerNorm(in[0], asVector(in[1]), asVector(in[2]), cache);
        };
        return {{randomMatrix(n, d, 1, 2.0), randomMatrix(d, 1, 2), randomMatrix(d, 1, 3)},
                [=](const auto &in) {
                    LayerNormCacheT<double> cache;
                    return project(forward(in, cache), r);
                },
                [=](const auto &in) {
                    LayerNormCacheT<double> cache;
                    forward(in, cache);
                    VectorT<double> dGamma = VectorT<double>::Zero(d), dBeta = dGamma;
                    const M dX = Ops::layerNormBackward(r, cache, asVector(in[1]), dGamma, dBeta);
                    return std::vector<M>{dX, M(dGamma), M(dBeta)};
                }};
    }
    if (op == "gelu") {
        const M r = randomMatrix(n, d, 99);
        return {{randomMatrix(n, d, 1, 3.0)},
                [=](const auto &in) { return project(Ops::gelu(in[0]), r); },
                [=](const auto &in) { return std::vector<M>{Ops::geluBackward(r, in[0])}; }};
    }
    if (op == "tied unembedding") {
        const M r = randomMatrix(n, vocab, 99);
        return {{randomMatrix(n, d, 1), randomMatrix(vocab, d, 2)},
                [=](const auto &in) { return project(Ops::tiedLinear(in[0], in[1]), r); },
                [=](const auto &in) {
                    M dE = M::Zero(vocab, d);
                    const M dX = Ops::tiedLinearBackward(r, in[0], in[1], dE);
                    return std::vector<M>{dX, dE};
                }};
    }
    // "unembedding + cross-entropy": logits = X U^T + b, mean loss over the scored rows.
    return {{randomMatrix(n, d, 1), randomMatrix(vocab, d, 2), randomMatrix(vocab, 1, 3)},
            [=](const auto &in) {
                return Ops::crossEntropy(Ops::linear(in[0], in[1], asVector(in[2])), targets, 0.25)
                           .lossSum /
                       4.0;
            },
            [=](const auto &in) {
                const M logits = Ops::linear(in[0], in[1], asVector(in[2]));
                const M dLogits = Ops::crossEntropy(logits, targets, 0.25).dLogits;
                M dU = M::Zero(vocab, d);
                VectorT<double> db = VectorT<double>::Zero(vocab);
                const M dX = Ops::linearBackward(dLogits, in[0], in[1], dU, db);
                return std::vector<M>{dX, dU, M(db)};
            }};
}

/// Largest relative error ||analytic - numeric|| / max(||analytic||, ||numeric||) over the
/// inputs, with central differences of step 1e-6.
double worstRelativeError(GradCase c, QByteArray *where)
{
    const std::vector<M> analytic = c.gradients(c.inputs);
    double worst = 0.0;
    for (size_t k = 0; k < c.inputs.size(); ++k) {
        M numeric(c.inputs[k].rows(), c.inputs[k].cols());
        for (Eigen::Index i = 0; i < numeric.size(); ++i) {
            const double keep = c.inputs[k].data()[i];
            c.inputs[k].data()[i] = keep + 1e-6;
            const double up = c.loss(c.inputs);
            c.inputs[k].data()[i] = keep - 1e-6;
            const double down = c.loss(c.inputs);
            c.inputs[k].data()[i] = keep;
            numeric.data()[i] = (up - down) / 2e-6;
        }
        const double scale = std::max({analytic[k].norm(), numeric.norm(), 1e-12});
        const double error = (analytic[k] - numeric).norm() / scale;
        if (error > worst) {
            worst = error;
            *where = "input " + QByteArray::number(qint64(k));
        }
    }
    return worst;
}

} // namespace

class TestGradCheck : public QObject
{
    Q_OBJECT

private slots:
    void operation_data();
    void operation();
    void model_data();
    void model();
};

void TestGradCheck::operation_data()
{
    QTest::addColumn<QByteArray>("op");
    for (const char *op : {"embedding", "projection", "scaled scores", "softmax",
                           "causal mask + softmax", "weighted sum", "concat", "layernorm", "gelu",
                           "tied unembedding", "unembedding + cross-entropy"})
        QTest::newRow(op) << QByteArray(op);
}

void TestGradCheck::operation()
{
    QFETCH(QByteArray, op);
    QByteArray where;
    const double error = worstRelativeError(makeCase(op), &where);
    QVERIFY2(
        error < 1e-4,
        (op + ", " + where + ": relative error " + QByteArray::number(error, 'g', 3)).constData());
}

void TestGradCheck::model_data()
{
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("heads");
    QTest::addColumn<bool>("layerNorm");
    QTest::addColumn<bool>("mlp");
    QTest::addColumn<bool>("tied");
    QTest::newRow("1 layer, 1 head") << 1 << 1 << false << false << false;
    QTest::newRow("2 layers, 2 heads") << 2 << 2 << false << false << false;
    QTest::newRow("2 layers, 4 heads, LayerNorm") << 2 << 4 << true << false << false;
    // The MLP's 4 * d_model widths make a whole-model check of it take seconds; one layer is
    // enough to wire its backward here (tst_lmgradients checks two against PyTorch).
    QTest::newRow("1 layer, MLP, tied (GPT-2)") << 1 << 2 << true << true << true;
}

/// The whole model, every parameter: the chain of backwards wired in the right order.
void TestGradCheck::model()
{
    QFETCH(int, layers);
    QFETCH(int, heads);
    QFETCH(bool, layerNorm);
    QFETCH(bool, mlp);
    QFETCH(bool, tied);
    const ToyModelConfig config{layers, heads, 16, 7, 6, layerNorm, mlp, tied};
    const std::vector<int> tokens = {1, 4, 4, 0, 6, 2, 3, 5, 1, 1, 0, 2};
    const std::vector<int> targets = {-1, 1, 4, 4, 0, 6, -1, 3, 5, 1, 1, 0};
    const auto lossOf = [&](const ToyModelT<double> &model, ToyParametersT<double> *gradients) {
        ToyModelT<double>::Activations acts;
        model.forward(tokens, 2, 6, acts);
        const auto loss = Ops::crossEntropy(acts.logits, targets, 0.1);
        if (gradients)
            model.backward(acts, loss.dLogits, *gradients);
        return loss.lossSum * 0.1;
    };
    ToyModelT<double> model(config, ToyParametersT<double>::initialize(config, 3));
    ToyParametersT<double> gradients = ToyParametersT<double>::zerosLike(model.parameters());
    lossOf(model, &gradients);
    const auto params = model.parameters().views(layerNorm);
    const auto grads = gradients.views(layerNorm);
    for (size_t k = 0; k < params.size(); ++k) {
        M numeric(params[k].rows, params[k].cols);
        for (Eigen::Index i = 0; i < numeric.size(); ++i) {
            const double keep = params[k].data[i];
            params[k].data[i] = keep + 1e-6;
            const double up = lossOf(model, nullptr);
            params[k].data[i] = keep - 1e-6;
            const double down = lossOf(model, nullptr);
            params[k].data[i] = keep;
            numeric.data()[i] = (up - down) / 2e-6;
        }
        const M analytic = grads[k].matrix();
        const double error =
            (analytic - numeric).norm() / std::max({analytic.norm(), numeric.norm(), 1e-12});
        QVERIFY2(error < 1e-4,
                 (params[k].name + ": relative error " + std::to_string(error)).c_str());
        QVERIFY2(analytic.norm() > 0.0 || params[k].name.find("position") != std::string::npos,
                 (params[k].name + " gets no gradient").c_str());
    }
}

HEADLENS_TEST_APPLESS_MAIN(TestGradCheck)
#include "tst_gradcheck.moc"
