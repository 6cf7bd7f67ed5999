// StepDescriptions: what each step of multi-head attention does, said three ways, and its cost.
#include "attention/stepdescriptions.h"

#include "attention/alibi.h"
#include "attention/steptext.h"

#include <cmath>

namespace headlens {

using namespace steptext;

StepDescriptions::StepDescriptions(const AttentionConfig &config, const AttentionInput &input)
    : m_config(config), m_input(input), m_cross(input.isCrossAttention()),
      m_grouped(config.kvHeadCount() < config.heads),
      m_alibi(config.attentionPositions == AttentionPositions::Alibi), m_b(double(input.batch())),
      m_n(double(input.queryLength())), m_nKv(double(input.keyLength())), m_h(config.heads),
      m_hKv(config.kvHeadCount()), m_dK(config.headDimK()), m_dV(config.headDimV()),
      m_dIn(double(input.inputWidth())), m_dKvIn(double(input.kvInputWidth())),
      m_dModel(config.dModel)
{}

TraceStep StepDescriptions::make(StepKind kind, std::string title, std::vector<TraceKey> inputs,
                                 std::vector<TraceKey> outputs) const
{
    TraceStep step;
    step.kind = kind;
    step.id = toString(kind);
    step.title = std::move(title);
    step.inputs = std::move(inputs);
    step.outputs = std::move(outputs);
    return step;
}

TraceStep StepDescriptions::tokens() const
{
    TraceStep s = make(StepKind::Tokens, "Tokens", {}, {keys::tokenIds});
    s.formula = "text -> tokens t_1 ... t_n";
    s.pytorch = "ids = tokenizer(text)  # (b, n)";
    s.explanation = "The text is cut into " + num(m_n) +
                    " tokens per sequence; each line is one sequence of the batch of " + num(m_b) +
                    ", and shorter ones are padded.";
    s.bytes = m_b * m_n * kFloat;
    return s;
}

TraceStep StepDescriptions::embed() const
{
    if (m_input.origin.isModel())
        return modelInput();
    const bool text = m_input.fromText();
    const bool positions =
        text && !m_input.positions.isEmpty() && m_config.positional != PositionalEncoding::None;
    TraceStep s =
        make(StepKind::Embed, "Embeddings",
             text ? std::vector<TraceKey>{keys::tokenIds} : std::vector<TraceKey>{},
             m_cross ? std::vector<TraceKey>{keys::x, keys::xKv} : std::vector<TraceKey>{keys::x});
    s.formula = positions ? "X = E[t] + PE" : "X = E[t]";
    s.pytorch = positions ? "x = embedding(ids) + pos[:n]  # (b, n, d_model)"
                          : "x = embedding(ids)  # (b, n, d_model)";
    s.explanation = "Each token becomes a vector of " + num(m_dIn) + " numbers" +
                    (positions ? std::string(", plus a " + toString(m_config.positional) +
                                             " encoding of its position, since attention "
                                             "itself does not see order.")
                               : std::string("."));
    if (!text)
        s.explanation =
            "The token vectors were given directly, " + num(m_dIn) + " numbers per token.";
    s.flops = positions ? m_b * m_n * m_dIn : 0.0;
    s.bytes = m_b * (m_n + (m_cross ? m_nKv : 0.0)) * m_dIn * kFloat;
    return s;
}

TraceStep StepDescriptions::modelInput() const
{
    const LayerOrigin &o = m_input.origin;
    const std::string layer = std::to_string(o.layer);
    const std::string stream = "h_" + layer; // the residual stream entering the layer
    TraceStep s = make(StepKind::Embed, "Layer " + layer + "'s input", {}, {keys::x});
    const std::string before = o.layer == 0   ? "the embeddings"
                               : o.layer == 1 ? "the embeddings plus what layer 0 added"
                                              : "the embeddings plus what layers 0 to " +
                                                    std::to_string(o.layer - 1) + " added";
    const std::string entering = "The residual stream entering layer " + layer + " of this " +
                                 o.family + " (layers 0 to " + std::to_string(o.layers - 1) +
                                 "): " + before;
    if (o.norm.empty()) { // post-norm (the block before ended with its norm), or no norm
        s.formula = "X = " + stream;
        s.pytorch = "x = hidden_states  # (b, n, d_model)";
        s.explanation = entering +
                        (o.normKind.empty() ? ", as it is (the model has no norms); "
                                            : ", already normalised by the " + o.normKind +
                                                  " that ends the block before it; ") +
                        num(m_dIn) + " numbers per token.";
    } else {
        s.formula = "X = " + o.normKind + "(" + stream + ")";
        s.pytorch = "x = " + o.norm + "(hidden_states)  # (b, n, d_model)";
        s.explanation = entering + ", normalised by " + o.norm + " (" + o.normKind +
                        "): " + num(m_dIn) +
                        " numbers per token, what the layer's attention reads.";
    }
    s.bytes = m_b * m_n * m_dIn * kFloat;
    return s;
}

TraceStep StepDescriptions::project() const
{
    TraceStep s =
        make(StepKind::Project, "Project to Q, K, V",
             m_cross ? std::vector<TraceKey>{keys::x, keys::xKv} : std::vector<TraceKey>{keys::x},
             {keys::q, keys::k, keys::v});
    const std::string kvSource = m_cross ? "X_kv" : "X";
    s.formula =
        "Q = X W_Q^T + b_Q,  K = " + kvSource + " W_K^T + b_K,  V = " + kvSource + " W_V^T + b_V";
    s.pytorch =
        m_cross ? "q, k, v = W_q(x), W_k(x_kv), W_v(x_kv)" : "q, k, v = W_q(x), W_k(x), W_v(x)";
    s.explanation = "Three learned linear maps turn every token into a query (what it looks "
                    "for), a key (what it offers) and a value (what it passes on), " +
                    num(m_h * m_dK) + " numbers each for all " + num(m_h) + " heads at once.";
    if (m_grouped)
        s.explanation = "Three learned linear maps turn every token into a query (what it looks "
                        "for) of " +
                        num(m_h * m_dK) + " numbers for the " + num(m_h) +
                        " query heads, and a key (what it offers) and a value (what it passes "
                        "on) of only " +
                        num(m_hKv * m_dK) + " and " + num(m_hKv * m_dV) + " numbers for the " +
                        num(m_hKv) + " K/V heads they share.";
    s.flops = 2.0 * m_b * (m_n * m_dIn * m_h * m_dK + m_nKv * m_dKvIn * m_hKv * (m_dK + m_dV));
    s.bytes = m_b * (m_n * m_h * m_dK + m_nKv * m_hKv * (m_dK + m_dV)) * kFloat;
    return s;
}

TraceStep StepDescriptions::split() const
{
    TraceStep s = make(StepKind::Split, "Split into heads", {keys::q, keys::k, keys::v},
                       {keys::qView, keys::kView, keys::vView});
    s.formula =
        m_grouped ? "Q -> (b, n, h, d_k),  K -> (b, n_kv, h_kv, d_k)" : "Q -> (b, n, h, d_k)";
    s.pytorch = m_grouped ? "q = q.view(b, n, h, d_k); k = k.view(b, n_kv, h_kv, d_k)"
                          : "q = q.view(b, n, h, d_k)";
    s.explanation = "Nothing is computed: the " + shape3(m_b, m_n, m_h * m_dK) +
                    " tensor is seen as " + shape4(m_b, m_n, m_h, m_dK) +
                    ", so head 1 gets dimensions 1-" + num(m_dK) + ", head 2 the next " +
                    num(m_dK) + ", and so on." + kvHeadsSentence();
    return s;
}

TraceStep StepDescriptions::transpose() const
{
    TraceStep s = make(StepKind::Transpose, "Heads first", {keys::qView, keys::kView, keys::vView},
                       {keys::qHeads, keys::kHeads, keys::vHeads});
    s.formula = "(b, n, h, d_k) -> (b, h, n, d_k)";
    s.pytorch = "q = q.transpose(1, 2)";
    s.explanation = "Swapping the token and head axes gives each of the " + num(m_h) +
                    " heads its own (n, d_k) = (" + num(m_n) + ", " + num(m_dK) +
                    ") matrix, so all heads can attend in parallel." + kvHeadsSentence();
    s.bytes = m_b * (m_h * m_n * m_dK + m_hKv * m_nKv * (m_dK + m_dV)) * kFloat;
    return s;
}

TraceStep StepDescriptions::scores() const
{
    TraceStep s = make(StepKind::Scores, "Scores Q K^T", {scoredQueries(), scoredKeys()},
                       m_alibi ? std::vector<TraceKey>{keys::scoresRaw, keys::alibiBias}
                               : std::vector<TraceKey>{keys::scoresRaw});
    s.formula = "S_h = Q_h K_h^T";
    s.pytorch = "scores = q @ k.transpose(-2, -1)";
    s.explanation = "Each head compares every query with every key by a dot product: a large "
                    "score means the query matches that key.";
    if (m_alibi)
        s.explanation += " Beside them, ALiBi's bias -m_h (i - j) penalises each earlier key by "
                         "its distance, with one slope m_h per head (" +
                         fmt("%.4g", alibiSlopes(int(m_h)).front()) + " for head 1, " +
                         fmt("%.4g", alibiSlopes(int(m_h)).back()) + " for head " + num(m_h) + ").";
    s.flops = 2.0 * m_b * m_h * m_n * m_nKv * m_dK;
    s.bytes = m_b * m_h * m_n * m_nKv * kFloat;
    return s;
}

TraceStep StepDescriptions::scale() const
{
    TraceStep s = make(StepKind::Scale, "Scale", {keys::scoresRaw}, {keys::scores});
    switch (m_config.scale) {
    case ScaleMode::InvSqrtDk:
        s.formula = "S_h / sqrt(d_k) = S_h / " + fmt("%.4g", std::sqrt(m_dK));
        s.pytorch = "scores = scores / math.sqrt(d_k)";
        s.explanation = "Dot products of " + num(m_dK) +
                        " numbers grow like sqrt(d_k); dividing by it keeps the softmax from "
                        "saturating into a single key.";
        break;
    case ScaleMode::None:
        s.formula = "S_h (unscaled)";
        s.pytorch = "scores = scores  # no scaling";
        s.explanation = "Scaling is off: large dot products push the softmax towards one key "
                        "per row. Turn 1/sqrt(d_k) back on to see the difference.";
        break;
    case ScaleMode::Temperature:
        s.formula = "S_h / T,  T = " + fmt("%.4g", m_config.temperature);
        s.pytorch = "scores = scores / " + fmt("%.4g", m_config.temperature);
        s.explanation = "Dividing by a temperature above 1 flattens the weights; below 1 it "
                        "sharpens them.";
        break;
    }
    s.flops = m_config.scaleFactor() != 1.0f ? m_b * m_h * m_n * m_nKv : 0.0;
    s.bytes = s.flops * kFloat;
    if (m_alibi) {
        s.inputs.push_back(keys::alibiBias);
        s.formula += ",  + B_h[i, j] = -m_h (i - j)";
        s.pytorch += " + alibi_bias  # (h, n, n_kv)";
        s.explanation += " ALiBi's bias is added after the scaling: the farther back a key, the "
                         "lower its score, by m_h per token.";
        s.flops += m_b * m_h * m_n * m_nKv;
        s.bytes = m_b * m_h * m_n * m_nKv * kFloat;
    }
    return s;
}

TraceStep StepDescriptions::mask(bool anyMasked) const
{
    const int window = m_config.window;
    TraceStep s =
        make(StepKind::Mask, "Mask",
             window > 0 ? std::vector<TraceKey>{keys::scores, keys::mask, keys::maskReason}
                        : std::vector<TraceKey>{keys::scores, keys::mask},
             {keys::maskedScores});
    s.formula = "S_h[i, j] = -inf where masked";
    s.pytorch = "scores = scores.masked_fill(mask, float('-inf'))";
    std::string what;
    if (m_config.causal)
        what = "a token may not look at later tokens (causal)";
    if (!m_input.keyPaddingMask.isEmpty())
        what += std::string(what.empty() ? "" : ", and ") + "padding keys are ignored";
    if (window > 0)
        what += std::string(what.empty() ? "" : ", and ") +
                (m_config.causal ? "a query sees only the " + num(window) +
                                       " most recent keys, itself included (sliding window)"
                                 : "a query sees only the keys less than " + num(window) +
                                       " places away (sliding window)");
    s.explanation =
        anyMasked ? "Masked places get -inf, so the softmax gives them weight 0: " + what + "."
                  : "No mask is active, so every query may look at every key.";
    s.bytes = anyMasked ? m_b * m_h * m_n * m_nKv * kFloat : 0.0;
    return s;
}

TraceStep StepDescriptions::softmax() const
{
    TraceStep s = make(StepKind::Softmax, "Softmax", {keys::maskedScores}, {keys::softmax});
    s.formula = "P_h = softmax(S_h) row by row";
    s.pytorch = "p = torch.softmax(scores, dim=-1)";
    s.explanation = "Each row becomes weights that are positive and sum to 1: how much of its "
                    "attention a query gives to each key.";
    s.flops = 4.0 * m_b * m_h * m_n * m_nKv; // max, subtract, exp, divide (exp counted once)
    s.bytes = m_b * m_h * m_n * m_nKv * kFloat;
    return s;
}

TraceStep StepDescriptions::dropout() const
{
    const bool active = m_config.training && m_config.dropout > 0.0f;
    TraceStep s = make(StepKind::Dropout, "Dropout", {keys::softmax}, {keys::attentionWeights});
    s.formula = active ? "P_h * keep / (1 - p),  p = " + fmt("%.3g", m_config.dropout) : "P_h";
    s.pytorch = active
                    ? "p = F.dropout(p, p=" + fmt("%.3g", m_config.dropout) + ", training=True)"
                    : "p = F.dropout(p, p=" + fmt("%.3g", m_config.dropout) + ", training=False)";
    s.explanation = active ? "In training, a random share of the weights is set to 0 and the "
                             "rest scaled up, so the layer cannot rely on any one link."
                           : "Dropout acts only in training mode; here the weights pass "
                             "unchanged.";
    s.flops = active ? m_b * m_h * m_n * m_nKv : 0.0;
    s.bytes = active ? m_b * m_h * m_n * m_nKv * kFloat : 0.0;
    return s;
}

TraceStep StepDescriptions::weightedSum() const
{
    TraceStep s = make(StepKind::WeightedSum, "Weighted sum of V",
                       {keys::attentionWeights, summedValues()}, {keys::context});
    s.formula = "head_h = P_h V_h";
    s.pytorch = "context = p @ v";
    s.explanation = "Each token's new vector in a head is the average of the values, weighted "
                    "by its attention: " +
                    shape4(m_b, m_h, m_n, m_dV) + ".";
    s.flops = 2.0 * m_b * m_h * m_n * m_nKv * m_dV;
    s.bytes = m_b * m_h * m_n * m_dV * kFloat;
    return s;
}

TraceStep StepDescriptions::transposeBack() const
{
    TraceStep s =
        make(StepKind::TransposeBack, "Tokens first again", {keys::context}, {keys::contextT});
    s.formula = "(b, h, n, d_v) -> (b, n, h, d_v)";
    s.pytorch = "context = context.transpose(1, 2)";
    s.explanation = "The token axis moves back to the front so each token's " + num(m_h) +
                    " head outputs sit next to each other.";
    s.bytes = m_b * m_h * m_n * m_dV * kFloat;
    return s;
}

TraceStep StepDescriptions::concat() const
{
    TraceStep s = make(StepKind::Concat, "Concatenate heads", {keys::contextT}, {keys::concat});
    s.formula = "Concat(head_1, ..., head_h)";
    s.pytorch = "context = context.contiguous().view(b, n, h * d_v)";
    s.explanation = "The " + num(m_h) + " head outputs of " + num(m_dV) +
                    " numbers are glued into one vector of " + num(m_h * m_dV) +
                    " per token: " + shape4(m_b, m_n, m_h, m_dV) + " -> " +
                    shape3(m_b, m_n, m_h * m_dV) + ".";
    return s;
}

TraceStep StepDescriptions::outputProjection() const
{
    TraceStep s = make(StepKind::OutputProjection, "Output projection", {keys::concat},
                       {keys::output, keys::headContributions});
    s.formula = "Y = Concat(head_1..h) W_O^T + b_O";
    s.pytorch = "y = out_proj(context)  # (b, n, d_model)";
    s.explanation = "A last linear map mixes the heads' outputs back into " + num(m_dModel) +
                    " numbers per token. It is a sum of one share per head: Y = sum_i head_i "
                    "W_O[:, block_i]^T + b_O.";
    s.flops = 2.0 * m_b * m_n * m_h * m_dV * m_dModel;
    s.bytes = m_b * m_n * m_dModel * (1.0 + m_h) * kFloat;
    return s;
}

} // namespace headlens
