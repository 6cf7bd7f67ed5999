// WorkspaceFile: JSON mapping of every setting, with messages that say what is wrong in a file.
#include "workspace/workspacefile.h"

#include "io/wholefile.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <cmath>
#include <limits>

namespace headlens {

namespace {

QJsonObject configToJson(const AttentionConfig &c)
{
    return QJsonObject{
        {"d_model", c.dModel},
        {"heads", c.heads},
        {"d_in", c.dIn},
        {"tied", c.tied},
        {"d_k", c.dK},
        {"d_v", c.dV},
        {"scale", QString::fromStdString(toString(c.scale))},
        {"temperature", double(c.temperature)},
        {"causal", c.causal},
        {"bias", c.bias},
        {"dropout", double(c.dropout)},
        {"training", c.training},
        // A JSON number cannot hold every 64-bit seed exactly: keep it as text.
        {"seed", QString::number(c.seed)},
        {"positional", QString::fromStdString(toString(c.positional))},
        {"tokenizer", QString::fromStdString(toString(c.tokenizer))},
        // Format version 2: attention's newer variants.
        {"kv_heads", c.kvHeads},
        {"attention_positions", QString::fromStdString(toString(c.attentionPositions))},
        {"rope_theta", double(c.ropeTheta)},
        {"rope_position_offset", c.ropePositionOffset},
        {"window", c.window},
    };
}

template <typename Enum>
Enum enumField(const QJsonObject &json, const char *key, Enum fallback,
               std::optional<Enum> (*parse)(const std::string &))
{
    if (!json.contains(key))
        return fallback;
    const QString text = json.value(key).toString();
    if (auto value = parse(text.toStdString()))
        return *value;
    throw InputError("The workspace's setting \"" + std::string(key) +
                     "\" has the unknown value \"" + quotedText(text.toStdString()) + "\".");
}

[[noreturn]] void refuseField(const char *key, const QJsonValue &value, const char *wanted)
{
    const QString shown =
        value.isString()
            ? "\"" + value.toString() + "\""
            : QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
    throw InputError("The workspace's setting \"" + std::string(key) + "\" holds " +
                     quotedText(shown.toStdString()) + ", not " + wanted +
                     ". Fix it in the file, or remove it to use the default.");
}

// A setting that is present must have its type: QJsonValue::toInt() would silently give the
// default for "eight" or 4e12, and the window would show settings the file does not hold.
int intField(const QJsonObject &json, const char *key, int fallback)
{
    if (!json.contains(key))
        return fallback;
    const QJsonValue value = json.value(key);
    const double number = value.toDouble(0.5);
    if (!value.isDouble() || number != std::floor(number) ||
        number < double(std::numeric_limits<int>::min()) ||
        number > double(std::numeric_limits<int>::max()))
        refuseField(key, value, "a whole number");
    return int(number);
}

float numberField(const QJsonObject &json, const char *key, float fallback)
{
    if (!json.contains(key))
        return fallback;
    const QJsonValue value = json.value(key);
    const double number = value.toDouble();
    if (!value.isDouble() || !std::isfinite(float(number)))
        refuseField(key, value, "a number");
    return float(number);
}

bool boolField(const QJsonObject &json, const char *key, bool fallback)
{
    if (!json.contains(key))
        return fallback;
    if (!json.value(key).isBool())
        refuseField(key, json.value(key), "true or false");
    return json.value(key).toBool();
}

AttentionConfig configFromJson(const QJsonObject &j)
{
    AttentionConfig c;
    c.dModel = intField(j, "d_model", c.dModel);
    c.heads = intField(j, "heads", c.heads);
    c.dIn = intField(j, "d_in", c.dIn);
    c.tied = boolField(j, "tied", c.tied);
    c.dK = intField(j, "d_k", c.dK);
    c.dV = intField(j, "d_v", c.dV);
    c.scale = enumField(j, "scale", c.scale, &scaleModeFromString);
    c.temperature = numberField(j, "temperature", c.temperature);
    c.causal = boolField(j, "causal", c.causal);
    c.bias = boolField(j, "bias", c.bias);
    c.dropout = numberField(j, "dropout", c.dropout);
    c.training = boolField(j, "training", c.training);
    bool ok = true;
    if (j.contains("seed"))
        c.seed = j.value("seed").toVariant().toString().toULongLong(&ok);
    if (!ok)
        throw InputError("The workspace's seed is not a whole number.");
    c.positional = enumField(j, "positional", c.positional, &positionalFromString);
    c.tokenizer = enumField(j, "tokenizer", c.tokenizer, &tokenizerFromString);
    // Absent from version 1 files: multi-head attention without positions inside it.
    c.kvHeads = intField(j, "kv_heads", c.kvHeads);
    c.attentionPositions =
        enumField(j, "attention_positions", c.attentionPositions, &attentionPositionsFromString);
    c.ropeTheta = numberField(j, "rope_theta", c.ropeTheta);
    c.ropePositionOffset = intField(j, "rope_position_offset", c.ropePositionOffset);
    c.window = intField(j, "window", c.window);
    return c;
}

// Optional (older files have none): [{"layer": 0, "head": 2, "kind": "zero"}], heads 0-based
// as in the core.
QJsonArray ablationsToJson(const std::vector<HeadIntervention> &items)
{
    QJsonArray array;
    for (const HeadIntervention &item : items)
        array.append(QJsonObject{{"layer", item.layer},
                                 {"head", item.head},
                                 {"kind", QString::fromStdString(toString(item.kind))}});
    return array;
}

std::optional<InterventionKind> ablationKindFromString(const std::string &text)
{
    for (InterventionKind kind :
         {InterventionKind::Zero, InterventionKind::Mean, InterventionKind::KeepOnly})
        if (toString(kind) == text)
            return kind;
    return std::nullopt;
}

std::vector<HeadIntervention> ablationsFromJson(const QJsonArray &array)
{
    std::vector<HeadIntervention> items;
    for (const QJsonValue &value : array) {
        const QJsonObject object = value.toObject();
        HeadIntervention item;
        item.layer = object.value("layer").toInt(-1);
        item.head = object.value("head").toInt(-1);
        item.kind = enumField(object, "kind", InterventionKind::Zero, &ablationKindFromString);
        if (item.layer < 0 || item.head < 0)
            throw InputError("An ablated head in the workspace has no \"layer\" or \"head\" "
                             "(whole numbers from 0); remove it from \"ablations\" or fix it.");
        items.push_back(item);
    }
    return items;
}

} // namespace

QJsonObject WorkspaceFile::toJson(const WorkspaceState &state)
{
    return QJsonObject{
        {"format_version", kFormatVersion},
        {"application", "HeadLens"},
        {"settings", configToJson(state.config)},
        {"texts", QJsonObject{{"queries", state.text},
                              {"keys_values", state.kvText},
                              {"cross_attention", state.crossAttention},
                              {"batch_index", state.batchIndex}}},
        {"weights", state.weightsPath},
        // Optional (older files have none): the model whose layer the views show.
        {"model", QJsonObject{{"path", state.modelPath}, {"layer", state.modelLayer}}},
        {"ablations", ablationsToJson(state.ablations)},
    };
}

WorkspaceState WorkspaceFile::fromJson(const QJsonObject &json)
{
    if (!json.contains("format_version"))
        throw InputError("This is not a HeadLens workspace: it has no \"format_version\".");
    const int version = json.value("format_version").toInt(-1);
    if (version > kFormatVersion)
        throw InputError("This workspace was written by a newer HeadLens (format version " +
                         std::to_string(version) + "; this one reads up to " +
                         std::to_string(kFormatVersion) + "). Please update HeadLens.");
    if (version < 1)
        throw InputError("The workspace's \"format_version\" is not a positive whole number.");
    WorkspaceState state;
    state.config = configFromJson(json.value("settings").toObject());
    const QJsonObject texts = json.value("texts").toObject();
    state.text = texts.value("queries").toString(state.text);
    state.kvText = texts.value("keys_values").toString();
    state.crossAttention = texts.value("cross_attention").toBool(false);
    state.batchIndex = std::max(0, texts.value("batch_index").toInt(0));
    state.weightsPath = json.value("weights").toString();
    const QJsonObject model = json.value("model").toObject();
    state.modelPath = model.value("path").toString();
    state.modelLayer = std::max(0, model.value("layer").toInt(0));
    state.ablations = ablationsFromJson(json.value("ablations").toArray());
    return state;
}

void WorkspaceFile::save(const QString &path, const WorkspaceState &state)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        throw InputError("Cannot write " + path.toStdString() + ": " +
                         file.errorString().toStdString());
    file.write(QJsonDocument(toJson(state)).toJson(QJsonDocument::Indented));
    if (!file.commit())
        throw InputError("Cannot save " + path.toStdString() + ": " +
                         file.errorString().toStdString());
}

WorkspaceState WorkspaceFile::load(const QString &path)
{
    const std::string bytes = WholeFile::read(path.toStdString(), kMaxFileBytes, "a workspace");
    return parse(QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size())), path);
}

WorkspaceState WorkspaceFile::parse(const QByteArray &bytes, const QString &sourceName)
{
    const std::string source = sourceName.toStdString();
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        throw InputError(source + " is damaged: " + error.errorString().toStdString() +
                         " at byte " + std::to_string(error.offset) + ".");
    if (!document.isObject())
        throw InputError(source + " is not a HeadLens workspace (no JSON object).");
    try {
        return fromJson(document.object());
    } catch (const InputError &problem) {
        throw InputError(source + ": " + problem.what()); // which file, then why
    }
}

} // namespace headlens
