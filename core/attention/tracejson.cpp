// TraceJson: nlohmann::json stays inside this file; the header exposes only strings.
#include "attention/tracejson.h"

#include "io/atomicfile.h"
#include "io/npyfile.h"
#include "util/inputerror.h"

#include <nlohmann/json.hpp>

#include <cassert>
#include <cmath>
#include <filesystem>

namespace headlens {

namespace {

// Keys keep the order written here (config first, steps in order), easier for people to read.
using json = nlohmann::ordered_json;

// A model's layer has no tokenizer setting or seed of the built-in layer's: its tokens are the
// model's and its weights the checkpoint's (trace.json's "model" says which).
json configJson(const AttentionConfig &c, bool model)
{
    json config{
        {"d_model", c.dModel},
        {"heads", c.heads},
        {"kv_heads", c.kvHeadCount()},
        {"d_in", c.dIn},
        {"input_width", c.inputWidth()},
        {"tied", c.tied},
        {"d_k", c.headDimK()},
        {"d_v", c.headDimV()},
        {"scale", toString(c.scale)},
        {"temperature", c.temperature},
        {"scale_factor", c.scaleFactor()},
        {"causal", c.causal},
        {"window", c.window},
        {"bias", c.bias},
        {"dropout", c.dropout},
        {"training", c.training},
        {"seed", c.seed},
        {"positional", toString(c.positional)},
        {"attention_positions", toString(c.attentionPositions)},
        {"rope_theta", c.ropeTheta},
        {"rope_position_offset", c.ropePositionOffset},
        {"tokenizer", toString(c.tokenizer)},
        {"memory_budget_bytes", c.memoryBudgetBytes},
    };
    if (model) {
        config.erase("seed");
        config.erase("tokenizer");
    }
    return config;
}

json originJson(const LayerOrigin &o, const Trace &trace)
{
    const TraceStep *input = trace.step(toString(StepKind::Embed));
    return json{{"family", o.family},
                {"layer", o.layer},
                {"layers", o.layers},
                {"input", input ? input->formula : std::string()},
                {"norm", o.norm.empty() ? json(nullptr) : json(o.norm)},
                {"norm_kind", o.normKind}};
}

json axesJson(const Shape &shape)
{
    json axes = json::array();
    for (const Axis &axis : shape.axes())
        axes.push_back({{"name", axis.name}, {"size", axis.size}});
    return axes;
}

// Shape text and axes of the first tensor in `names` (null when the trace lacks it).
void addShape(json &out, const char *key, const Trace &trace, const std::vector<TraceKey> &names)
{
    const TraceTensor *entry = names.empty() ? nullptr : trace.find(names.front());
    if (!entry || entry->tensor.isEmpty()) {
        out[key] = nullptr;
        out[std::string(key) + "_axes"] = nullptr;
        return;
    }
    out[key] = entry->tensor.shape().toString();
    out[std::string(key) + "_axes"] = axesJson(entry->tensor.shape());
}

json stepsJson(const Trace &trace)
{
    json steps = json::array();
    for (const TraceStep &s : trace.steps) {
        json step{{"id", s.id},
                  {"kind", toString(s.kind)},
                  {"title", s.title},
                  {"inputs", namesOf(s.inputs)},
                  {"outputs", namesOf(s.outputs)},
                  {"formula", s.formula},
                  {"pytorch", s.pytorch},
                  {"explanation", s.explanation},
                  {"flops", s.flops},
                  {"bytes", s.bytes}};
        addShape(step, "shape_before", trace, s.inputs);
        addShape(step, "shape_after", trace, s.outputs);
        steps.push_back(std::move(step));
    }
    return steps;
}

json tensorsJson(const Trace &trace)
{
    json tensors = json::array();
    for (const TraceTensor &t : trace.tensors()) {
        tensors.push_back({{"name", t.name()},
                           {"shape", t.tensor.shape().toString()},
                           {"axes", axesJson(t.tensor.shape())},
                           {"meaning", t.meaning},
                           {"bytes", t.tensor.isEmpty() ? 0 : t.tensor.numel() * 4}});
    }
    return tensors;
}

json headStatsJson(const Trace &trace)
{
    json stats = json::array();
    const int heads = std::max(trace.config.heads, 1);
    for (size_t i = 0; i < trace.headStats.size(); ++i) {
        const HeadStats &s = trace.headStats[i];
        const int head = static_cast<int>(i) % heads;
        stats.push_back({{"b", static_cast<int64_t>(i) / heads},
                         {"head", head},
                         {"kv_head", trace.config.kvHeadOf(head)},
                         {"entropy", s.entropy},
                         {"mean_distance", s.meanDistance},
                         {"diagonal", s.diagonal},
                         {"previous_token", s.previousToken},
                         {"first_token", s.firstToken},
                         {"max_weight", s.maxWeight}});
    }
    return stats;
}

/// The token ids the trace holds as floats (small vocabularies' ids and -1 for padding, all
/// exact in float32), as the integers they are.
std::vector<int64_t> idsOf(const Tensor &ids)
{
    std::vector<int64_t> values(size_t(ids.numel()));
    for (size_t i = 0; i < values.size(); ++i)
        values[i] = std::llround(ids.data()[i]);
    return values;
}

} // namespace

std::string TraceJson::summary(const Trace &trace)
{
    const LayerOrigin &origin = trace.input.origin;
    json root{
        {"config", configJson(trace.config, origin.isModel())},
        {"batch", trace.batch()},
        {"query_length", trace.queryLength()},
        {"key_length", trace.keyLength()},
        {"tokens", trace.input.tokens},
        {"kv_tokens", trace.input.kvTokens},
        {"steps", stepsJson(trace)},
        {"tensors", tensorsJson(trace)},
        {"head_stats", headStatsJson(trace)},
        {"warnings", trace.warnings},
        {"total_flops", trace.totalFlops()},
        {"total_bytes", trace.bytes()},
    };
    if (origin.isModel())
        root["model"] = originJson(origin, trace);
    // Byte-level BPE pieces need not be valid UTF-8 on their own; replace rather than throw.
    return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

void TraceJson::exportDirectory(const Trace &trace, const std::string &dir)
{
    AtomicFile::createFolder(dir);
    const std::filesystem::path base(dir);
    for (const TraceTensor &t : trace.tensors()) {
        if (t.tensor.isEmpty())
            continue;
        const std::string path = (base / (t.name() + ".npy")).string();
        if (t.key == keys::tokenIds)
            NpyFile::writeInt64(path, idsOf(t.tensor), t.tensor.shape().sizes());
        else
            NpyFile::write(path, t.tensor);
    }
    AtomicFile::write((base / "trace.json").string(), summary(trace));
}

} // namespace headlens
