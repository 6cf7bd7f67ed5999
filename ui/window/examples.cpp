// Examples: parsed once per call from the compiled-in resource.
#include "window/examples.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

static void initHeadLensResources()
{
    Q_INIT_RESOURCE(headlens); // the resources live in a static library
}

namespace headlens {

WorkspaceState Example::appliedTo(WorkspaceState state) const
{
    state.text = text;
    state.kvText = kvText;
    state.crossAttention = crossAttention;
    state.batchIndex = 0;
    return state;
}

QList<Example> Examples::all()
{
    initHeadLensResources();
    QFile file(":/examples.json");
    QList<Example> examples;
    if (!file.open(QIODevice::ReadOnly))
        return examples;
    const QJsonArray array = QJsonDocument::fromJson(file.readAll()).array();
    for (const QJsonValue &value : array) {
        const QJsonObject object = value.toObject();
        examples.append({object.value("title").toString(), object.value("text").toString(),
                         object.value("kv_text").toString(),
                         object.value("cross_attention").toBool()});
    }
    return examples;
}

} // namespace headlens
