// modelfolder.h: copies of a test checkpoint folder with one config.json value changed.
#pragma once

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace headlens::test {

/// Sets `key` to `value` in the config.json of the folder `dir`.
inline void editConfig(const QString &dir, const QString &key, const QJsonValue &value)
{
    QFile file(dir + "/config.json");
    QVERIFY(file.open(QIODevice::ReadWrite));
    QJsonObject config = QJsonDocument::fromJson(file.readAll()).object();
    config[key] = value;
    QVERIFY(file.resize(0));
    QVERIFY(file.write(QJsonDocument(config).toJson()) > 0);
}

/// A copy of every file of the folder `from` in `to`, whose config.json has `key` set to
/// `value`.
inline void copyWithConfig(const QString &from, const QString &to, const QString &key,
                           const QJsonValue &value)
{
    for (const QString &name : QDir(from).entryList(QDir::Files))
        QVERIFY(QFile::copy(from + "/" + name, to + "/" + name));
    editConfig(to, key, value);
}

} // namespace headlens::test
