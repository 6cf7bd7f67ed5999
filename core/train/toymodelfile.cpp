// ToyModelFile: the trained model to and from .npz through NpzArchive.
#include "train/toymodelfile.h"

#include "io/npzarchive.h"
#include "io/wholefile.h"
#include "util/inputerror.h"

#include <cmath>
#include <map>

namespace headlens {

namespace {

constexpr const char *kSettingsName = "headlens_toy_settings";

int taskCode(TaskKind kind)
{
    return int(kind);
}

Tensor settingsTensor(const TrainedModel &model)
{
    const TrainingSettings &s = model.settings;
    // Format 1 unless an option needs format 2's fields: older HeadLens builds open it.
    const bool options =
        s.model.rope || s.model.kvHeadCount() != s.model.heads || s.model.dropout != 0.0f;
    std::vector<float> values = {float(options ? 2 : 1), float(taskCode(s.task)),
                                 float(s.model.layers), float(s.model.heads), float(s.model.dModel),
                                 float(s.model.vocabulary), float(s.model.maxLength),
                                 s.model.layerNorm ? 1.0f : 0.0f, float(model.steps),
                                 s.learningRate, float(s.batchSize),
                                 // The seed in 24-bit pieces: a float holds 24 bits exactly.
                                 float(s.seed & 0xffffff), float((s.seed >> 24) & 0xffffff),
                                 float(s.seed >> 48), float(s.heldOutSize), s.gradientClip};
    if (options)
        values.insert(values.end(),
                      {s.model.rope ? 1.0f : 0.0f, float(s.model.kvHeadCount()), s.model.dropout});
    const auto fields = int64_t(values.size());
    return Tensor(Shape{{"field", fields}}, std::move(values));
}

// Field `index` of the settings as a whole number in [0, 2^24] (the range a float holds
// exactly) or [0, 2^62] for the step count; anything else (NaN, 1e30, -1, 2.5) would be
// undefined or wrong as an integer.
int64_t wholeField(const float *v, int index, const std::string &path, int maxPower = 24)
{
    const float value = v[index];
    const float high = std::ldexp(1.0f, maxPower);
    if (!(value >= 0.0f && value <= high) || value != std::floor(value))
        throw InputError(path + ": headlens_toy_settings field " + std::to_string(index) +
                         " holds " + std::to_string(value) + " where a whole number from 0 to 2^" +
                         std::to_string(maxPower) + " belongs; the file is damaged.");
    return int64_t(value);
}

TrainingSettings settingsFrom(const Tensor &tensor, const std::string &path, int64_t &steps)
{
    if (tensor.numel() < ToyModelFile::kSettingsFields)
        throw InputError(path + ": headlens_toy_settings is too short; the file is damaged.");
    const float *v = tensor.data();
    const auto whole = [&](int index) { return wholeField(v, index, path); };
    if (whole(0) > ToyModelFile::kFormatVersion)
        throw InputError(path + " was written by a newer HeadLens (toy model format " +
                         std::to_string(whole(0)) + "): update HeadLens to open it.");
    if (whole(1) > 3)
        throw InputError(path + ": unknown task code " + std::to_string(whole(1)) + ".");
    TrainingSettings s;
    s.task = TaskKind(whole(1));
    s.model = {int(whole(2)), int(whole(3)), int(whole(4)),
               int(whole(5)), int(whole(6)), v[7] != 0.0f};
    steps = wholeField(v, 8, path, 62); // float(steps) rounds above 2^24
    s.learningRate = v[9];
    s.batchSize = int(whole(10));
    s.seed = uint64_t(whole(11)) | uint64_t(whole(12)) << 24 | uint64_t(whole(13)) << 48;
    s.heldOutSize = int(whole(14));
    s.gradientClip = v[15];
    if (whole(0) >= 2) {
        if (tensor.numel() < ToyModelFile::kSettingsFields + ToyModelFile::kOptionFields)
            throw InputError(path + ": headlens_toy_settings is too short for format 2; the "
                                    "file is damaged.");
        s.model.rope = v[16] != 0.0f;
        s.model.kvHeads = int(whole(17));
        s.model.dropout = v[18];
    }
    if (auto problem = s.validate())
        throw InputError(path + " holds settings HeadLens cannot use: " + *problem);
    return s;
}

} // namespace

void ToyModelFile::save(const std::string &path, const TrainedModel &model)
{
    std::vector<std::pair<std::string, Tensor>> entries;
    entries.emplace_back(kSettingsName, settingsTensor(model));
    for (const ParameterViewT<const float> &view :
         model.parameters.views(model.settings.model.layerNorm)) {
        const float *begin = view.data;
        Shape shape =
            view.cols == 1 ? Shape{{"d0", view.rows}} : Shape{{"d0", view.rows}, {"d1", view.cols}};
        entries.emplace_back(
            view.name, Tensor(std::move(shape), std::vector<float>(begin, begin + view.size())));
    }
    NpzArchive::write(path, entries, true);
}

TrainedModel ToyModelFile::load(const std::string &path)
{
    return parse(WholeFile::read(path, kMaxFileBytes, "a toy model"), path);
}

TrainedModel ToyModelFile::parse(const std::string &bytes, const std::string &path)
{
    std::map<std::string, Tensor> arrays;
    for (auto &[name, tensor] : NpzArchive::parse(bytes, path))
        arrays[name] = tensor;
    const auto settings = arrays.find(kSettingsName);
    if (settings == arrays.end())
        throw InputError(path + " is not a HeadLens toy model (it has no " +
                         std::string(kSettingsName) +
                         "): train one with headlens-cli --train TASK --save FILE.");
    TrainedModel model;
    model.settings = settingsFrom(settings->second, path, model.steps);
    model.parameters = ToyParameters::initialize(model.settings.model, model.settings.seed);
    for (ParameterViewT<float> &view : model.parameters.views(model.settings.model.layerNorm)) {
        const auto found = arrays.find(view.name);
        if (found == arrays.end())
            throw InputError(path + " lacks the parameter " + view.name +
                             "; the file is damaged or not a toy model.");
        if (found->second.numel() != view.size())
            throw InputError(path + ": " + view.name + " has " +
                             std::to_string(found->second.numel()) + " values where " +
                             std::to_string(view.size()) + " (" + std::to_string(view.rows) +
                             " x " + std::to_string(view.cols) + ") were expected.");
        std::copy(found->second.data(), found->second.data() + view.size(), view.data);
    }
    return model;
}

} // namespace headlens
