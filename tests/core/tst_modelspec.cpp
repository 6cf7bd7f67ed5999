// Tests of ModelSpec: config.json read through the family table, defaults, and refusals.
#include "errorof.h"

#include "model/modelspec.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;
using headlens::test::errorOf;

class TestModelSpec : public QObject
{
    Q_OBJECT

private slots:
    void readsSizesUnderTheFamilysKeys();
    void absentKeysTakeTheFamilysDefaults();
    void aConfigWithoutModelTypeIsKnownByItsKeys();
    void refuses_data();
    void refuses();
};

void TestModelSpec::readsSizesUnderTheFamilysKeys()
{
    const ModelSpec s = ModelSpec::fromJson(
        R"({"model_type": "gpt2", "n_layer": 3, "n_head": 4, "n_embd": 32, "n_positions": 64,
            "vocab_size": 500, "n_inner": 100, "layer_norm_epsilon": 1e-6})",
        "config.json");
    QCOMPARE(s.family->displayName, std::string("GPT-2"));
    QCOMPARE(s.layers, 3);
    QCOMPARE(s.heads, 4);
    QCOMPARE(s.dModel, 32);
    QCOMPARE(s.headDim(), 8);
    QCOMPARE(s.contextLength, 64);
    QCOMPARE(s.vocabSize, 500);
    QCOMPARE(s.mlpWidth, 100);
    QCOMPARE(s.normEpsilon, 1e-6f);
    QCOMPARE(s.sizesText(), std::string("n_layer 3, n_embd 32, vocab_size 500, n_positions 64"));
    const AttentionConfig a = s.attentionConfig();
    QCOMPARE(a.dModel, 32);
    QCOMPARE(a.heads, 4);
    QVERIFY(a.causal && a.bias);
    QVERIFY(a.positional == PositionalEncoding::None);
    QCOMPARE(a.dropout, 0.0f);
}

/// GPT2Config's defaults are GPT-2 small's; a null n_inner means 4 * n_embd.
void TestModelSpec::absentKeysTakeTheFamilysDefaults()
{
    const ModelSpec s = ModelSpec::fromJson(R"({"model_type": "gpt2", "n_inner": null})", "c");
    QCOMPARE(s.layers, 12);
    QCOMPARE(s.heads, 12);
    QCOMPARE(s.dModel, 768);
    QCOMPARE(s.mlpWidth, 3072);
    QCOMPARE(s.vocabSize, 50257);
    QCOMPARE(s.contextLength, 1024);
    QCOMPARE(s.normEpsilon, 1e-5f);
}

void TestModelSpec::aConfigWithoutModelTypeIsKnownByItsKeys()
{
    const ModelSpec s = ModelSpec::fromJson(R"({"n_layer": 2, "n_embd": 16, "n_head": 2})", "c");
    QCOMPARE(s.family->modelType, std::string("gpt2"));
    QCOMPARE(s.layers, 2);
}

void TestModelSpec::refuses_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QStringList>("fragments"); // every one must be in the message
    QTest::newRow("not an object")
        << "[1, 2]" << QStringList{"/m/config.json is not a JSON object", "Download it again"};
    QTest::newRow("unknown family")
        << R"({"model_type": "mamba"})"
        << QStringList{"/m/config.json: model_type is \"mamba\"", "runs the model types \"gpt2\"",
                       "Open a checkpoint of one of those families"};
    QTest::newRow("model_type not a string")
        << R"({"model_type": 7})" << QStringList{"model_type is 7", "\"gpt2\""};
    QTest::newRow("no model_type, no known key")
        << R"({"hidden": 4})" << QStringList{"/m/config.json: model_type is missing"};
    QTest::newRow("size out of range")
        << R"({"model_type": "gpt2", "n_layer": 0})"
        << QStringList{"\"n_layer\" is 0", "whole number from 1 to 1024", "Fix config.json"};
    QTest::newRow("heads do not divide")
        << R"({"model_type": "gpt2", "n_embd": 10, "n_head": 3})"
        << QStringList{"n_embd 10 cannot be split over n_head 3 heads"};
    QTest::newRow("activation") << R"({"model_type": "gpt2", "activation_function": "relu"})"
                                << QStringList{"activation_function is \"relu\"", "gelu_new"};
    // 1e-92 is 0 as a float32 (found by fuzz_modelconfig): a LayerNorm would divide by sqrt(var).
    QTest::newRow("epsilon below a float")
        << R"({"model_type": "bert", "layer_norm_eps": 1e-92})"
        << QStringList{"\"layer_norm_eps\" is 1e-92", "a small positive number such as 1e-05"};
    QTest::newRow("relative positions")
        << R"({"model_type": "bert", "position_embedding_type": "relative_key_query"})"
        << QStringList{"position_embedding_type is \"relative_key_query\"", "absolute"};
    QTest::newRow("RoBERTa's padding past the positions")
        << R"({"model_type": "roberta", "pad_token_id": 600, "max_position_embeddings": 514})"
        << QStringList{"pad_token_id 600 leaves no position for a token",
                       "max_position_embeddings 514"};
}

void TestModelSpec::refuses()
{
    QFETCH(QString, json);
    QFETCH(QStringList, fragments);
    const QString error =
        errorOf([&] { ModelSpec::fromJson(json.toStdString(), "/m/config.json"); });
    for (const QString &fragment : fragments)
        QVERIFY2(error.contains(fragment), qPrintable(error + " lacks " + fragment));
}

HEADLENS_TEST_APPLESS_MAIN(TestModelSpec)
#include "tst_modelspec.moc"
