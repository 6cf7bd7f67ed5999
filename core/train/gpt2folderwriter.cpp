// Gpt2FolderWriter: GPT-2's names and layouts, and the swap of a whole folder.
#include "train/gpt2folderwriter.h"

#include "io/atomicfile.h"
#include "io/safetensorswriter.h"
#include "train/headlensgptformat.h"
#include "util/inputerror.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace headlens {

namespace fs = std::filesystem;

namespace {

constexpr const char *kTrainingLog = "headlens_training.json";

SafetensorsTensor matrixTensor(const std::string &name, const MatrixT<float> &m)
{
    return {name, {m.rows(), m.cols()}, std::vector<float>(m.data(), m.data() + m.size())};
}

SafetensorsTensor vectorTensor(const std::string &name, const VectorT<float> &v)
{
    return {name, {v.size()}, std::vector<float>(v.data(), v.data() + v.size())};
}

/// nn.Linear's (out, in) written as Conv1D's (in, out).
SafetensorsTensor transposed(const std::string &name, const MatrixT<float> &m)
{
    return matrixTensor(name, m.transpose());
}

std::vector<SafetensorsTensor> gpt2Tensors(const ToyModelConfig &config, const ToyParameters &p)
{
    // An attention-only model is GPT-2 with an MLP of zeros: GELU(0 x + 0) = 0 adds nothing.
    const int d = config.dModel;
    const int w = config.mlpWidth();
    const MatrixT<float> zeroFc = MatrixT<float>::Zero(w, d);
    const MatrixT<float> zeroProj = MatrixT<float>::Zero(d, w);
    const VectorT<float> ones = VectorT<float>::Ones(d);
    const VectorT<float> zeros = VectorT<float>::Zero(d);
    const VectorT<float> zeroWide = VectorT<float>::Zero(w);
    std::vector<SafetensorsTensor> out;
    out.push_back(matrixTensor("wte.weight", p.tokenEmbedding));
    out.push_back(matrixTensor("wpe.weight", p.positionEmbedding));
    for (size_t l = 0; l < p.layers.size(); ++l) {
        const ToyLayerParametersT<float> &layer = p.layers[l];
        const std::string h = "h." + std::to_string(l) + ".";
        out.push_back(vectorTensor(h + "ln_1.weight", layer.lnGamma));
        out.push_back(vectorTensor(h + "ln_1.bias", layer.lnBeta));
        out.push_back(transposed(h + "attn.c_attn.weight", layer.inProj));
        out.push_back(vectorTensor(h + "attn.c_attn.bias", layer.inBias));
        out.push_back(transposed(h + "attn.c_proj.weight", layer.outProj));
        out.push_back(vectorTensor(h + "attn.c_proj.bias", layer.outBias));
        const bool mlp = config.mlp;
        out.push_back(vectorTensor(h + "ln_2.weight", mlp ? layer.mlpLnGamma : ones));
        out.push_back(vectorTensor(h + "ln_2.bias", mlp ? layer.mlpLnBeta : zeros));
        out.push_back(transposed(h + "mlp.c_fc.weight", mlp ? layer.fcWeight : zeroFc));
        out.push_back(vectorTensor(h + "mlp.c_fc.bias", mlp ? layer.fcBias : zeroWide));
        out.push_back(transposed(h + "mlp.c_proj.weight", mlp ? layer.projWeight : zeroProj));
        out.push_back(vectorTensor(h + "mlp.c_proj.bias", mlp ? layer.projBias : zeros));
    }
    out.push_back(vectorTensor("ln_f.weight", p.finalGamma));
    out.push_back(vectorTensor("ln_f.bias", p.finalBeta));
    return out;
}

std::string configJson(const ToyModelConfig &c)
{
    const nlohmann::ordered_json config = {
        {"architectures", {"GPT2LMHeadModel"}},
        {"model_type", "gpt2"},
        {"activation_function", "gelu_new"},
        {"n_embd", c.dModel},
        {"n_head", c.heads},
        {"n_layer", c.layers},
        {"n_positions", c.maxLength},
        {"n_ctx", c.maxLength},
        {"n_inner", nullptr},
        {"vocab_size", c.vocabulary},
        {"layer_norm_epsilon", 1e-5},
        {"initializer_range", 0.02},
        // 0 even after training with dropout (its p is in headlens_training.json): it keeps
        // transformers' train() mode equal to eval().
        {"attn_pdrop", 0.0},
        {"embd_pdrop", 0.0},
        {"resid_pdrop", 0.0},
        {"scale_attn_weights", true},
        {"tie_word_embeddings", true},
        {"bos_token_id", nullptr},
        {"eos_token_id", nullptr},
        {"torch_dtype", "float32"},
    };
    return config.dump(2) + "\n";
}

/// Flushes a folder's entry list (the renames into it) to disk; best effort.
void syncFolder(const fs::path &dir)
{
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

[[noreturn]] void fail(const std::string &dir, const std::string &why)
{
    throw InputError("Cannot save the model to " + dir + ": " + why);
}

} // namespace

std::optional<std::string> Gpt2FolderWriter::unsupported(const ToyModelConfig &config)
{
    if (config.layerNorm && config.tiedEmbedding)
        return std::nullopt;
    return std::string("A GPT-2 folder holds GPT-2's block, with LayerNorm and a tied "
                       "unembedding; this model has ") +
           (!config.layerNorm ? "no LayerNorm." : "an untied unembedding.");
}

void Gpt2FolderWriter::write(const std::string &dir, const ToyModelConfig &config,
                             const ToyParameters &parameters, const std::string &tokenizerJson,
                             const std::string &trainingJson)
{
    const fs::path target = fs::absolute(fs::path(dir)).lexically_normal();
    std::error_code error;
    const bool exists = fs::exists(target, error);
    if (exists && !fs::is_directory(target, error))
        fail(dir, "it is a file, not a folder. Choose a new folder name.");
    if (exists && !fs::is_empty(target, error) && !fs::exists(target / kTrainingLog, error))
        fail(dir, "the folder holds other files, which would be lost. Choose an empty or new "
                  "folder.");
    const fs::path parent = target.parent_path();
    if (!fs::is_directory(parent, error))
        fail(dir, "the folder " + parent.string() + " does not exist.");

    const fs::path fresh =
        parent / (target.filename().string() + ".saving-" + std::to_string(::getpid()));
    fs::remove_all(fresh, error);
    if (!fs::create_directory(fresh, error))
        fail(dir, error.message() + " (is the place read-only?).");
    try {
        // GPT-2 when it can hold the model (transformers opens it); RoPE or GQA need HeadLens's
        // own model type.
        const bool own = HeadLensGptFormat::needed(config);
        AtomicFile::write((fresh / "config.json").string(),
                          own ? HeadLensGptFormat::configJson(config) : configJson(config));
        SafetensorsWriter::write((fresh / "model.safetensors").string(),
                                 own ? HeadLensGptFormat::tensors(config, parameters)
                                     : gpt2Tensors(config, parameters),
                                 {{"format", "pt"}});
        AtomicFile::write((fresh / "tokenizer.json").string(), tokenizerJson);
        AtomicFile::write((fresh / kTrainingLog).string(), trainingJson);
    } catch (const InputError &) {
        fs::remove_all(fresh, error);
        throw;
    }
    syncFolder(fresh);
    if (!exists) {
        if (::rename(fresh.c_str(), target.c_str()) != 0) {
            const std::string why = std::strerror(errno);
            fs::remove_all(fresh, error);
            fail(dir, why + ".");
        }
    } else if (::renameat2(AT_FDCWD, fresh.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) ==
               0) {
        fs::remove_all(fresh, error); // now the previous save
    } else {
        // No atomic exchange here: move the previous save aside, then the new one in.
        const fs::path previous =
            parent / (target.filename().string() + ".previous-" + std::to_string(::getpid()));
        if (::rename(target.c_str(), previous.c_str()) != 0 ||
            ::rename(fresh.c_str(), target.c_str()) != 0) {
            const std::string why = std::strerror(errno);
            if (!fs::exists(target, error))
                ::rename(previous.c_str(), target.c_str());
            fs::remove_all(fresh, error);
            fail(dir, why + ".");
        }
        fs::remove_all(previous, error);
    }
    syncFolder(parent);
}

} // namespace headlens
