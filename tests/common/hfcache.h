// hfcache.h: a Hugging Face cache laid out as huggingface_hub writes it, for the catalog tests.
#pragma once

#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>

#include <filesystem>

namespace headlens::test {

/// Caches the files of `from` as repository `repo` ("models--org--name") in `cache`: the files
/// in blobs/, each revision's snapshot folder made of symlinks into them, refs/main naming
/// `main` (none when empty).
inline void cacheModel(const QString &cache, const QString &repo, const QString &from,
                       const QStringList &revisions, const QString &main)
{
    namespace fs = std::filesystem;
    const fs::path root = fs::path(cache.toStdString()) / repo.toStdString();
    fs::create_directories(root / "blobs");
    fs::create_directories(root / "refs");
    for (const QString &revision : revisions) {
        const fs::path snapshot = root / "snapshots" / revision.toStdString();
        fs::create_directories(snapshot);
        for (const QString &name : QDir(from).entryList(QDir::Files)) {
            const fs::path blob = root / "blobs" / (revision + "-" + name).toStdString();
            fs::copy_file((from + "/" + name).toStdString(), blob);
            fs::create_symlink(fs::path("../../blobs") / blob.filename(),
                               snapshot / name.toStdString());
        }
    }
    if (!main.isEmpty()) {
        QFile ref(QString::fromStdString((root / "refs" / "main").string()));
        if (ref.open(QIODevice::WriteOnly))
            ref.write(main.toUtf8() + "\n");
    }
}

} // namespace headlens::test
