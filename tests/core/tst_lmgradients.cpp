// tst_lmgradients: the trainable decoder's loss and every parameter's gradient against PyTorch's
// autograd in float64 (scripts/make_lm_gradient_goldens.py), for each option set.
#include "io/npzarchive.h"
#include "testmain.h"
#include "train/toymodel.h"
#include "train/trainops.h"

#include <QTest>

#include <map>

using namespace headlens;

namespace {

using M = MatrixT<double>;

/// The members of one golden file by name.
std::map<std::string, Tensor> readGolden(const QString &name)
{
    std::map<std::string, Tensor> members;
    const QString path =
        QStringLiteral(HEADLENS_TEST_DATA "/golden/lm_gradients_") + name + QStringLiteral(".npz");
    for (auto &[key, tensor] : NpzArchive::read(path.toStdString()))
        members.emplace(key, std::move(tensor));
    return members;
}

std::vector<int> ids(const Tensor &t)
{
    return std::vector<int>(t.data(), t.data() + t.numel());
}

} // namespace

class TestLmGradients : public QObject
{
    Q_OBJECT

private slots:
    void everyParameterMatchesAutograd_data();
    void everyParameterMatchesAutograd();
};

void TestLmGradients::everyParameterMatchesAutograd_data()
{
    QTest::addColumn<QString>("options");
    for (const char *options : {"attention_only", "layernorm", "mlp", "gpt2_tied", "rope", "gqa",
                                "dropout", "rope_gqa_dropout"})
        QTest::newRow(options) << QString::fromLatin1(options);
}

void TestLmGradients::everyParameterMatchesAutograd()
{
    QFETCH(QString, options);
    std::map<std::string, Tensor> golden = readGolden(options);
    const float *c = golden.at("config").data();
    ToyModelConfig config;
    config.layers = int(c[0]);
    config.heads = int(c[1]);
    config.dModel = int(c[2]);
    config.vocabulary = int(c[3]);
    config.maxLength = int(c[4]);
    config.layerNorm = c[5] != 0.0f;
    config.mlp = c[6] != 0.0f;
    config.tiedEmbedding = c[7] != 0.0f;
    const int count = int(c[8]);
    const int length = int(c[9]);
    config.rope = c[10] != 0.0f;
    config.kvHeads = int(c[11]);
    config.dropout = c[12];
    // The script's masks: DropoutMask's draw at this seed and step, the whole batch at once.
    const DropoutMask dropout(config.dropout, uint64_t(c[13]), uint64_t(c[14]));
    QVERIFY2(!config.validate(ToyModelConfig::kLanguageModelLimits),
             config.validate(ToyModelConfig::kLanguageModelLimits).value_or("").c_str());

    // The golden's weights, every one: a parameter the model has and the file lacks (or the
    // other way round) fails here.
    ToyModelT<double> model(config, ToyParametersT<double>::initialize(config, 1));
    size_t parametersInFile = 0;
    for (const auto &[key, tensor] : golden)
        parametersInFile += key.rfind("param/", 0) == 0 ? 1 : 0;
    auto params = model.parameters().views(config.layerNorm);
    QCOMPARE(params.size(), parametersInFile);
    for (ParameterViewT<double> &view : params) {
        const Tensor &value = golden.at("param/" + view.name);
        QCOMPARE(value.numel(), int64_t(view.size()));
        for (Eigen::Index i = 0; i < view.size(); ++i)
            view.data[i] = double(value.data()[i]);
    }

    ToyModelT<double>::Activations acts;
    const std::vector<int> targets = ids(golden.at("targets"));
    int scored = 0;
    for (int t : targets)
        scored += t >= 0 ? 1 : 0;
    model.forward(ids(golden.at("tokens")), count, length, acts, nullptr,
                  config.dropout > 0.0f ? &dropout : nullptr);
    const auto loss = TrainOps<double>::crossEntropy(acts.logits, targets, 1.0 / scored);
    // Relative, as the gradients below: the golden's loss is read as float32 (an attention-only
    // model's loss reaches 68, where a float's step is 8e-6).
    const double expectedLoss = double(golden.at("loss").data()[0]);
    const double lossError = qAbs(loss.lossSum / scored - expectedLoss) / qMax(1.0, expectedLoss);
    QVERIFY2(lossError < 1e-6, ("loss: relative error " + std::to_string(lossError)).c_str());

    ToyParametersT<double> gradients = ToyParametersT<double>::zerosLike(model.parameters());
    model.backward(acts, loss.dLogits, gradients);
    for (const ParameterViewT<double> &view : gradients.views(config.layerNorm)) {
        const Tensor &expected = golden.at("grad/" + view.name);
        const M reference =
            Eigen::Map<const MatrixT<float>>(expected.data(), view.rows, view.cols).cast<double>();
        const M mine = view.matrix();
        // The golden is stored as float32: 1e-6 of the gradient's size is its precision.
        const double error = (mine - reference).norm() / std::max(reference.norm(), 1e-12);
        QVERIFY2(error < 1e-5, (view.name + ": relative error " + std::to_string(error)).c_str());
        QVERIFY2(reference.norm() > 0.0, (view.name + " has no gradient in the golden").c_str());
    }
}

HEADLENS_TEST_APPLESS_MAIN(TestLmGradients)
#include "tst_lmgradients.moc"
