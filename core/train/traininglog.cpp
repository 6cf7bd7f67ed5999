// TrainingLog: the rows, the moment copying appeared, and the JSON.
#include "train/traininglog.h"

#include <nlohmann/json.hpp>

namespace headlens {

void TrainingLog::add(const TrainingLogRow &row)
{
    m_rows.push_back(row);
    if (m_copyingStep < 0 && row.repeatedLoss < kCopyingRatio * row.unrepeatedLoss)
        m_copyingStep = row.step;
}

void TrainingLog::setCheck(std::vector<int> ids, std::vector<float> lastLogits)
{
    m_checkIds = std::move(ids);
    m_checkLogits = std::move(lastLogits);
}

std::string TrainingLog::toJson(const std::string &textName, const std::string &tokenizer) const
{
    const TrainingSettings &s = m_settings;
    nlohmann::ordered_json json = {
        {"format", "headlens-training"},
        {"version", 1},
        {"text", textName},
        {"tokenizer", tokenizer},
        {"settings",
         {{"layers", s.model.layers},
          {"heads", s.model.heads},
          {"d_model", s.model.dModel},
          {"vocabulary", s.model.vocabulary},
          {"context", s.model.maxLength},
          {"layer_norm", s.model.layerNorm},
          {"mlp", s.model.mlp},
          {"tied_embedding", s.model.tiedEmbedding},
          {"rope", s.model.rope},
          {"kv_heads", s.model.kvHeadCount()},
          {"dropout", s.model.dropout},
          {"learning_rate", s.learningRate},
          {"weight_decay", s.weightDecay},
          {"warmup_steps", s.warmupSteps},
          {"decay_steps", s.decaySteps},
          {"batch_size", s.batchSize},
          {"gradient_clip", s.gradientClip},
          {"seed", s.seed}}},
        {"copying_step", m_copyingStep >= 0 ? nlohmann::ordered_json(m_copyingStep) : nullptr},
    };
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const TrainingLogRow &r : m_rows)
        rows.push_back({{"step", r.step},
                        {"seconds", r.seconds},
                        {"train_loss", r.trainLoss},
                        {"held_out_loss", r.heldOutLoss},
                        {"unrepeated_loss", r.unrepeatedLoss},
                        {"repeated_loss", r.repeatedLoss},
                        {"strongest_induction", r.strongestInduction},
                        {"strongest_previous_token", r.strongestPreviousToken}});
    json["rows"] = rows;
    if (!m_checkIds.empty())
        json["check"] = {{"ids", m_checkIds}, {"last_logits", m_checkLogits}};
    return json.dump(2) + "\n";
}

} // namespace headlens
