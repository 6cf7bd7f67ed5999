// attentiongolden.h: the cases of scripts/make_attention_goldens.py and how to read their settings.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentioninput.h"
#include "io/npzarchive.h"
#include "tensor/tensor.h"

#include <QString>
#include <QStringList>

#include <map>
#include <string>

namespace headlens::test {

/// One file per case, tests/data/golden/<name>.npz (scripts/make_attention_goldens.py).
inline const char *const kAttentionGoldens[] = {
    "gqa_h8_kv2",
    "gqa_h8_kv2_nobias_causal",
    "gqa_h8_kv2_padding",
    "mqa_h8_kv1_causal_padding",
    "mqa_h8_kv1_nobias",
    "rope_half_causal",
    "rope_interleaved_causal",
    "rope_half_gqa_padding",
    "alibi_h8_causal",
    "alibi_h6_causal_padding",
    "window_causal",
    "window_causal_padding_gqa",
    "window_bidirectional_padding",
};

/// What the reference computed, under the trace's (and --export-dir's) names; a case holds
/// the ones its settings make.
inline const char *const kAttentionGoldenTensors[] = {
    "q",          "k",          "v",          "k_heads", "v_heads", "q_rot",   "k_rot",
    "k_repeated", "v_repeated", "alibi_bias", "scores",  "weights", "context", "output",
};

inline QString attentionGoldenPath(const char *name)
{
    return QString(HEADLENS_TEST_DATA) + "/golden/" + name + ".npz";
}

using GoldenEntries = std::map<std::string, Tensor>;

inline GoldenEntries readAttentionGolden(const QString &path)
{
    GoldenEntries entries;
    for (auto &[name, tensor] : NpzArchive::read(path.toStdString()))
        entries[name] = tensor;
    return entries;
}

inline int goldenInt(const GoldenEntries &g, const char *name)
{
    return static_cast<int>(g.at(name).data()[0]);
}

/// attention_positions is saved as the bytes of its name ("rope-interleaved").
inline std::string goldenPositions(const GoldenEntries &g)
{
    const Tensor &bytes = g.at("attention_positions");
    std::string text;
    for (int64_t i = 0; i < bytes.numel(); ++i)
        text += static_cast<char>(bytes.data()[i]);
    return text;
}

/// The case's layer settings besides those its weights fix (d_model, bias, h_kv).
inline AttentionConfig goldenSettings(const GoldenEntries &g)
{
    AttentionConfig config;
    config.heads = goldenInt(g, "num_heads");
    config.causal = goldenInt(g, "causal") != 0;
    config.window = goldenInt(g, "window");
    config.ropeTheta = g.at("rope_theta").data()[0];
    config.attentionPositions =
        attentionPositionsFromString(goldenPositions(g)).value_or(AttentionPositions::None);
    return config;
}

/// The same settings as headlens-cli options (h_kv left to the weights file).
inline QStringList goldenSettingOptions(const GoldenEntries &g)
{
    QStringList args{"--heads",
                     QString::number(goldenInt(g, "num_heads")),
                     "--window",
                     QString::number(goldenInt(g, "window")),
                     "--attention-positions",
                     QString::fromStdString(goldenPositions(g)),
                     "--rope-theta",
                     QString::number(double(g.at("rope_theta").data()[0]))};
    if (goldenInt(g, "causal") != 0)
        args << "--causal";
    return args;
}

/// The input the reference saw: query (b, n, E) and key_padding_mask (b, n) when padded, with
/// labels for the unpadded tokens of each sequence.
inline AttentionInput goldenInput(const GoldenEntries &g)
{
    AttentionInput input;
    const Tensor &query = g.at("query");
    const int64_t b = query.shape().size(0), n = query.shape().size(1);
    input.x = query.view(Shape{{"b", b}, {"n", n}, {"d_in", query.shape().size(2)}});
    if (g.count("key_padding_mask"))
        input.keyPaddingMask = g.at("key_padding_mask").view(Shape{{"b", b}, {"n_kv", n}});
    input.tokens.resize(static_cast<size_t>(b));
    for (int64_t s = 0; s < b; ++s)
        for (int64_t j = 0; j < n; ++j)
            if (input.keyPaddingMask.isEmpty() || input.keyPaddingMask.data()[s * n + j] == 0.0f)
                input.tokens[static_cast<size_t>(s)].push_back("t" + std::to_string(j));
    return input;
}

} // namespace headlens::test
