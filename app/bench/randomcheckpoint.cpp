// RandomCheckpoint: the safetensors header and data written tensor by tensor, no copy kept.
#include "randomcheckpoint.h"

#include "model/familytable.h"
#include "util/counterrandom.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

namespace headlens {

namespace {

/// A tensor to write: its name, shape, and whether it is a norm's weight (written as ones).
struct TensorSpec
{
    std::string name;
    std::vector<int64_t> shape;
    bool ones = false;
};

/// Every tensor of the family's checkpoint, named by its table (familytables.cpp) under the
/// table's first prefix, in the order Hugging Face writes a block. The sizes are the shape's;
/// which tensors exist is the table's switches (biases, norm kind, learned positions).
std::vector<TensorSpec> tensorsOf(const FamilyTable &f, const CheckpointShape &s)
{
    const TensorNames &n = f.tensors;
    const int64_t d = s.dModel, hd = s.dModel / s.heads, q = s.heads * hd, kv = s.kvHeads * hd;
    const int64_t mlp = f.mlp == MlpKind::SwiGlu ? s.mlp : 4 * d;
    std::vector<TensorSpec> t;
    const auto add = [&](const std::string &pattern, int layer, std::vector<int64_t> shape,
                         bool ones = false) {
        if (!pattern.empty())
            t.push_back({n.prefixes.front() + layerTensorName(pattern, layer), shape, ones});
    };
    // (d_out, d_in) as nn.Linear stores a weight; Conv1D (GPT-2) stores its transpose.
    const auto linear = [&](int64_t out, int64_t in) {
        return f.layout == WeightLayout::Conv1D ? std::vector<int64_t>{in, out}
                                                : std::vector<int64_t>{out, in};
    };
    add(n.embedding, 0, {s.vocab, d});
    if (f.positions == PositionKind::Learned)
        add(n.positions, 0, {s.context, d});
    for (int i = 0; i < s.layers; ++i) {
        add(n.norm1Weight, i, {d}, true);
        if (f.normBias)
            add(n.norm1Bias, i, {d});
        add(n.qkvWeight, i, linear(3 * d, d));
        if (f.qkvBias)
            add(n.qkvBias, i, {3 * d});
        const std::tuple<const std::string &, const std::string &, int64_t> projections[] = {
            {n.qWeight, n.qBias, q}, {n.kWeight, n.kBias, kv}, {n.vWeight, n.vBias, kv}};
        for (const auto &[weight, bias, rows] : projections) {
            add(weight, i, linear(rows, d));
            if (f.qkvBias)
                add(bias, i, {rows});
        }
        add(n.outWeight, i, linear(d, q));
        if (f.outBias)
            add(n.outBias, i, {d});
        add(n.norm2Weight, i, {d}, true);
        if (f.normBias)
            add(n.norm2Bias, i, {d});
        add(n.gateWeight, i, linear(mlp, d));
        add(n.upWeight, i, linear(mlp, d));
        add(n.upBias, i, {mlp});
        add(n.downWeight, i, linear(d, mlp));
        add(n.downBias, i, {d});
    }
    add(n.finalNormWeight, 0, {d}, true);
    if (f.normBias)
        add(n.finalNormBias, 0, {d});
    return t;
}

/// config.json with the family's own keys (FamilyTable's ConfigKey names).
nlohmann::json configOf(const FamilyTable &f, const CheckpointShape &s)
{
    nlohmann::json c = {{"model_type", f.modelType}, {f.activationKey, f.activation},
                        {f.layers.key, s.layers},    {f.heads.key, s.heads},
                        {f.dModel.key, s.dModel},    {f.contextLength.key, s.context},
                        {f.vocabSize.key, s.vocab},  {f.normEpsilon.key, f.normEpsilon.fallback}};
    if (f.mlp == MlpKind::SwiGlu) {
        c[f.kvHeads.key] = s.kvHeads;
        c[f.mlpWidth.key] = s.mlp;
        c[f.ropeTheta.key] = 1000000.0;
        c[f.tieKey] = true;
    }
    return c;
}

int64_t count(const std::vector<int64_t> &shape)
{
    int64_t n = 1;
    for (int64_t size : shape)
        n *= size;
    return n;
}

/// N(0, 0.02) by Box-Muller from the counter-based generator; norm weights 1 so that the
/// activations stay in range.
std::vector<unsigned char> values(const TensorSpec &t, uint64_t stream, bool bf16)
{
    const int64_t n = count(t.shape);
    const CounterRandom random(2019, stream);
    std::vector<unsigned char> bytes(size_t(n) * (bf16 ? 2 : 4));
    for (int64_t i = 0; i < n; ++i) {
        const double u = std::max(double(random.uniform(2 * uint64_t(i))), 1e-12);
        const double v = random.uniform(2 * uint64_t(i) + 1);
        const float x =
            t.ones ? 1.0f : float(0.02 * std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v));
        uint32_t bits;
        std::memcpy(&bits, &x, 4);
        if (bf16) {
            const uint16_t top = uint16_t(bits >> 16);
            std::memcpy(bytes.data() + 2 * i, &top, 2);
        } else {
            std::memcpy(bytes.data() + 4 * i, &bits, 4);
        }
    }
    return bytes;
}

void writeText(const std::filesystem::path &path, const std::string &text)
{
    std::ofstream file(path, std::ios::binary);
    file << text;
    if (!file)
        throw std::runtime_error("cannot write " + path.string());
}

void writeTokenizer(const std::filesystem::path &dir)
{
    // GPT-2's byte alphabet (encoder.py's bytes_to_unicode): printable bytes stand for
    // themselves, the others for U+0100 onwards; one token per byte, ids in that order.
    nlohmann::json vocab = nlohmann::json::object();
    int next = 256, id = 0;
    std::vector<int> order;
    for (int b = 0; b < 256; ++b)
        if ((b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF))
            order.push_back(b);
    std::vector<std::pair<int, int>> table; // (byte, code point)
    for (int b : order)
        table.push_back({b, b});
    for (int b = 0; b < 256; ++b)
        if (std::find(order.begin(), order.end(), b) == order.end())
            table.push_back({b, next++});
    for (const auto &entry : table) {
        const int c = entry.second;
        std::string utf8 = c < 0x80 ? std::string(1, char(c))
                                    : std::string{char(0xC0 | (c >> 6)), char(0x80 | (c & 0x3F))};
        vocab[utf8] = id++;
    }
    writeText(dir / "vocab.json", vocab.dump());
    writeText(dir / "merges.txt", "#version: 0.2\n");
}

} // namespace

CheckpointShape CheckpointShape::qwen25Small()
{
    CheckpointShape s;
    s.qwen2 = true;
    s.layers = 24;
    s.heads = 14;
    s.kvHeads = 2;
    s.dModel = 896;
    s.mlp = 4864;
    s.context = 32768;
    s.vocab = 151936;
    s.bf16 = true;
    return s;
}

int64_t RandomCheckpoint::write(const std::string &dirName, const CheckpointShape &shape)
{
    const std::filesystem::path dir(dirName);
    std::filesystem::create_directories(dir);
    const FamilyTable &family = *FamilyTable::find(shape.qwen2 ? "qwen2" : "gpt2");
    writeText(dir / "config.json", configOf(family, shape).dump(2));
    writeTokenizer(dir);

    const std::vector<TensorSpec> tensors = tensorsOf(family, shape);
    nlohmann::json header = {{"__metadata__", {{"format", "pt"}}}};
    int64_t offset = 0;
    const int64_t width = shape.bf16 ? 2 : 4;
    for (const TensorSpec &t : tensors) {
        const int64_t bytes = count(t.shape) * width;
        header[t.name] = {{"dtype", shape.bf16 ? "BF16" : "F32"},
                          {"shape", t.shape},
                          {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' '); // the data starts 8-byte aligned
    std::ofstream file(dir / "model.safetensors", std::ios::binary);
    const uint64_t length = text.size();
    for (int i = 0; i < 8; ++i)
        file.put(char((length >> (8 * i)) & 0xFF));
    file << text;
    for (size_t i = 0; i < tensors.size(); ++i) {
        const std::vector<unsigned char> bytes = values(tensors[i], i, shape.bf16);
        file.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
    }
    if (!file)
        throw std::runtime_error("cannot write " + (dir / "model.safetensors").string());
    return 8 + int64_t(text.size()) + offset;
}

std::vector<int> RandomCheckpoint::tokenIds(int n)
{
    std::vector<int> ids(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
        ids[size_t(i)] = (i * 37) % 256;
    return ids;
}

std::string RandomCheckpoint::text(int n)
{
    std::string text;
    for (int i = 0; i < n; ++i)
        text += (i % 6 == 5) ? ' ' : char('a' + (i * 7) % 26);
    return text;
}

} // namespace headlens
