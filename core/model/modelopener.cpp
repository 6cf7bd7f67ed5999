// ModelOpener: folder = checkpoint (family from config.json), a file starting "GGUF" = llama.cpp's
// checkpoint, .npz with toy settings = toy model.
#include "model/modelopener.h"

#include "io/gguffile.h"
#include "model/ggufconfig.h"
#include "model/modelspec.h"
#include "model/toyopenedmodel.h"
#include "model/transformeropenedmodel.h"
#include "train/toymodelfile.h"
#include "util/inputerror.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace headlens {

namespace {

enum class Family
{
    None,
    Checkpoint, ///< a folder: its config.json names the family (FamilyTable)
    Gguf,       ///< a GGUF file: its general.architecture names the family
    Toy
};

// A .npz is a zip: its central directory at the end lists every member's name, so the last
// few kilobytes say whether the file holds "headlens_toy_settings" (ToyModelFile).
bool namesToySettings(const std::string &path)
{
    // Opening a FIFO would wait for a writer; only a regular file can be a toy model.
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        return false;
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file)
        return false;
    const std::streamoff size = file.tellg();
    const std::streamoff tail = std::min<std::streamoff>(size, 1 << 20);
    file.seekg(size - tail);
    const std::string bytes((std::istreambuf_iterator<char>(file)),
                            std::istreambuf_iterator<char>());
    return bytes.find("headlens_toy_settings") != std::string::npos;
}

Family familyOf(const std::string &path)
{
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        return Family::Checkpoint;
    if (std::filesystem::is_regular_file(path, error) && GgufFile::hasMagic(path))
        return Family::Gguf;
    return namesToySettings(path) ? Family::Toy : Family::None;
}

bool endsWithNpz(const std::string &path)
{
    std::string extension = std::filesystem::path(path).extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return extension == ".npz";
}

} // namespace

bool ModelOpener::namesModel(const std::string &path)
{
    return familyOf(path) != Family::None;
}

std::optional<std::string> ModelOpener::problemWith(const std::string &path)
{
    switch (familyOf(path)) {
    case Family::Checkpoint:
        if (!std::filesystem::exists(std::filesystem::path(path) / "config.json"))
            return path + " is not a model folder: it has no config.json (Hugging Face's "
                          "description of the model).";
        return std::nullopt;
    case Family::Gguf:
    case Family::Toy:
        return std::nullopt;
    case Family::None:
        break;
    }
    return path + " is not a HeadLens toy model (no headlens_toy_settings), a GGUF file nor a "
                  "model folder. Choose a folder holding config.json and the weights, a .gguf "
                  "file, or a toy model saved from the Train tab.";
}

std::string ModelOpener::label(const std::string &path)
{
    const std::string file = std::filesystem::path(path).filename().string();
    const Family family = familyOf(path);
    if (family == Family::Gguf) {
        try {
            return GgufConfig::family(GgufFile::open(path)).displayName + " (GGUF): " + file;
        } catch (const InputError &) {
            return "GGUF file: " + file;
        }
    }
    if (family != Family::Checkpoint)
        return "Toy model: " + file;
    try {
        return ModelSpec::read((std::filesystem::path(path) / "config.json").string())
                   .family->displayName +
               ": " + file;
    } catch (const InputError &) {
        return "Model folder: " + file; // opening it will say what is wrong
    }
}

std::shared_ptr<const OpenedModel> ModelOpener::open(const std::string &path, uint64_t heldBytes)
{
    const Family family = familyOf(path);
    std::error_code error;
    const bool missing = !std::filesystem::exists(path, error);
    if (family == Family::Checkpoint || family == Family::Gguf || (missing && !endsWithNpz(path)))
        return std::make_shared<const TransformerOpenedModel>(
            TransformerModel::open(path, heldBytes));
    // Any other file is read as a toy model, whose loader says what is wrong with one that is not.
    return std::make_shared<const ToyOpenedModel>(
        std::make_shared<const TrainedModel>(ToyModelFile::load(path)), path);
}

std::shared_ptr<const OpenedModel>
ModelOpener::fromTrained(std::shared_ptr<const TrainedModel> model)
{
    return std::make_shared<const ToyOpenedModel>(std::move(model), std::string());
}

} // namespace headlens
