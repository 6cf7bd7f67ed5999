// pipelinecases.h: the layer settings the pipeline tests share, from plain MHA to GQA with RoPE.
#pragma once

#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"

#include <QTest>

#include <memory>

namespace headlens::test {

/// A trace and the weights it was computed with.
struct PipelineCase
{
    std::shared_ptr<const Trace> trace;
    AttentionWeights weights;
};

/// Adds a "caseName" column with one row per configuration the issue names: the lesson's
/// sentence at 512/8, a batch of 2 with padding, cross-attention with n != n_kv, untied
/// d_k != d_v, causal, and the 8-dimensions-2-heads picture of the lessons. makePipelineCase
/// also makes "gqa-rope", "alibi" and "window" (addPipelineVariantCases).
inline void addPipelineCases()
{
    QTest::addColumn<QString>("caseName");
    for (const char *name : {"lesson", "batch-padding", "cross", "untied", "causal", "tiny"})
        QTest::newRow(name) << QString(name);
}

/// Adds a "caseName" column with one row per kind of layer the pipeline explains: plain
/// multi-head attention, grouped-query with RoPE, ALiBi, a sliding window and cross-attention
/// (the last three causal where that applies).
inline void addPipelineVariantCases()
{
    QTest::addColumn<QString>("caseName");
    for (const char *name : {"lesson", "gqa-rope", "alibi", "window", "cross"})
        QTest::newRow(name) << QString(name);
}

/// The trace of `texts` (keys and values from `kv` when given) under `config`, with its
/// weights.
inline PipelineCase makeCaseOf(const AttentionConfig &config, std::vector<std::string> texts,
                               std::vector<std::string> kv = {})
{
    AttentionInput input = InputBuilder::fromTexts(config, texts, kv);
    PipelineCase c;
    c.weights = AttentionWeights::initialize(config, int(input.kvInputWidth()));
    // Non-zero output bias, so a forgotten b_O shows up in the sums.
    for (Eigen::Index i = 0; i < c.weights.bO.size(); ++i)
        c.weights.bO[i] = 0.01f * float(i % 7) - 0.03f;
    c.trace = std::make_shared<const Trace>(computeTrace(config, std::move(input), c.weights));
    return c;
}

inline PipelineCase makePipelineCase(const QString &name)
{
    AttentionConfig config;
    config.seed = 3;
    std::vector<std::string> texts{"The tired robot dropped the heavy gear because it broke"};
    std::vector<std::string> kv;
    if (name != "lesson") {
        config.dModel = 24;
        config.heads = 3;
    }
    if (name == "batch-padding")
        texts.push_back("The bank was robbed");
    if (name == "cross")
        kv.push_back("The bank of the river");
    if (name == "untied") {
        config.tied = false;
        config.dK = 5;
        config.dV = 7;
    }
    if (name == "causal" || name == "gqa-rope" || name == "alibi" || name == "window")
        config.causal = true;
    if (name == "tiny") {
        config.dModel = 8;
        config.heads = 2;
    }
    if (name == "gqa-rope") { // Llama's layer: 4 query heads share each of 2 K/V heads
        config.dModel = 32;
        config.heads = 8;
        config.kvHeads = 2;
        config.attentionPositions = AttentionPositions::Rope;
    }
    if (name == "alibi")
        config.attentionPositions = AttentionPositions::Alibi;
    if (name == "window")
        config.window = 3;
    return makeCaseOf(config, std::move(texts), std::move(kv));
}

} // namespace headlens::test
