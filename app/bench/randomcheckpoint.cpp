// RandomCheckpoint: the safetensors header and data written tensor by tensor, no copy kept.
#include "randomcheckpoint.h"

#include "util/counterrandom.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace headlens {

namespace {

using TensorSpec = std::pair<std::string, std::vector<int64_t>>;

std::vector<TensorSpec> gpt2Tensors(const CheckpointShape &s)
{
    const int64_t d = s.dModel;
    std::vector<TensorSpec> t = {{"wte.weight", {s.vocab, d}}, {"wpe.weight", {s.context, d}}};
    for (int i = 0; i < s.layers; ++i) {
        const std::string h = "h." + std::to_string(i) + ".";
        t.insert(t.end(), {{h + "ln_1.weight", {d}},
                           {h + "ln_1.bias", {d}},
                           {h + "attn.c_attn.weight", {d, 3 * d}},
                           {h + "attn.c_attn.bias", {3 * d}},
                           {h + "attn.c_proj.weight", {d, d}},
                           {h + "attn.c_proj.bias", {d}},
                           {h + "ln_2.weight", {d}},
                           {h + "ln_2.bias", {d}},
                           {h + "mlp.c_fc.weight", {d, 4 * d}},
                           {h + "mlp.c_fc.bias", {4 * d}},
                           {h + "mlp.c_proj.weight", {4 * d, d}},
                           {h + "mlp.c_proj.bias", {d}}});
    }
    t.insert(t.end(), {{"ln_f.weight", {d}}, {"ln_f.bias", {d}}});
    return t;
}

std::vector<TensorSpec> qwen2Tensors(const CheckpointShape &s)
{
    const int64_t d = s.dModel, hd = s.dModel / s.heads, q = s.heads * hd, kv = s.kvHeads * hd;
    std::vector<TensorSpec> t = {{"model.embed_tokens.weight", {s.vocab, d}}};
    for (int i = 0; i < s.layers; ++i) {
        const std::string a = "model.layers." + std::to_string(i) + ".";
        t.insert(t.end(), {{a + "input_layernorm.weight", {d}},
                           {a + "self_attn.q_proj.weight", {q, d}},
                           {a + "self_attn.q_proj.bias", {q}},
                           {a + "self_attn.k_proj.weight", {kv, d}},
                           {a + "self_attn.k_proj.bias", {kv}},
                           {a + "self_attn.v_proj.weight", {kv, d}},
                           {a + "self_attn.v_proj.bias", {kv}},
                           {a + "self_attn.o_proj.weight", {d, q}},
                           {a + "post_attention_layernorm.weight", {d}},
                           {a + "mlp.gate_proj.weight", {s.mlp, d}},
                           {a + "mlp.up_proj.weight", {s.mlp, d}},
                           {a + "mlp.down_proj.weight", {d, s.mlp}}});
    }
    t.push_back({"model.norm.weight", {d}});
    return t;
}

nlohmann::json configOf(const CheckpointShape &s)
{
    if (!s.qwen2)
        return {{"model_type", "gpt2"},  {"activation_function", "gelu_new"},
                {"n_layer", s.layers},   {"n_head", s.heads},
                {"n_embd", s.dModel},    {"n_positions", s.context},
                {"vocab_size", s.vocab}, {"layer_norm_epsilon", 1e-5}};
    return {{"model_type", "qwen2"},
            {"hidden_act", "silu"},
            {"num_hidden_layers", s.layers},
            {"num_attention_heads", s.heads},
            {"num_key_value_heads", s.kvHeads},
            {"hidden_size", s.dModel},
            {"intermediate_size", s.mlp},
            {"max_position_embeddings", s.context},
            {"vocab_size", s.vocab},
            {"rms_norm_eps", 1e-6},
            {"rope_theta", 1000000.0},
            {"tie_word_embeddings", true}};
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
    const int64_t n = count(t.second);
    const bool normWeight =
        t.first.find("ln_") != std::string::npos && t.first.find(".weight") != std::string::npos;
    const CounterRandom random(2019, stream);
    std::vector<unsigned char> bytes(size_t(n) * (bf16 ? 2 : 4));
    for (int64_t i = 0; i < n; ++i) {
        const double u = std::max(double(random.uniform(2 * uint64_t(i))), 1e-12);
        const double v = random.uniform(2 * uint64_t(i) + 1);
        const float x =
            normWeight ? 1.0f
                       : float(0.02 * std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v));
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
    writeText(dir / "config.json", configOf(shape).dump(2));
    writeTokenizer(dir);

    const std::vector<TensorSpec> tensors = shape.qwen2 ? qwen2Tensors(shape) : gpt2Tensors(shape);
    nlohmann::json header = {{"__metadata__", {{"format", "pt"}}}};
    int64_t offset = 0;
    const int64_t width = shape.bf16 ? 2 : 4;
    for (const TensorSpec &t : tensors) {
        const int64_t bytes = count(t.second) * width;
        header[t.first] = {{"dtype", shape.bf16 ? "BF16" : "F32"},
                           {"shape", t.second},
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

std::string RandomCheckpoint::text(int n)
{
    std::string text;
    for (int i = 0; i < n; ++i)
        text += (i % 6 == 5) ? ' ' : char('a' + (i * 7) % 26);
    return text;
}

} // namespace headlens
