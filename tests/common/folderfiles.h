// folderfiles: small files written into and read from temporary model folders, for tests.
#pragma once

#include "text/tokenizerfolder.h"

#include <QByteArray>
#include <QFile>
#include <QString>

namespace headlens::test {

/// The SlowTokenizer a golden file or a test row names ("BertWordPiece").
inline SlowTokenizer slowOf(const QString &name)
{
    if (name == "BertWordPiece")
        return SlowTokenizer::BertWordPiece;
    if (name == "RobertaBpe")
        return SlowTokenizer::RobertaBpe;
    if (name != "Gpt2Bpe")
        qFatal("unknown slow tokenizer %s", qPrintable(name));
    return SlowTokenizer::Gpt2Bpe;
}

inline void writeFile(const QString &path, const QByteArray &contents)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(contents) != contents.size())
        qFatal("cannot write %s", qPrintable(path));
}

inline QByteArray readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

} // namespace headlens::test
