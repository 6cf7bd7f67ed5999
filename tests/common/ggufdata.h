// ggufData: where make_gguf_tiny.py's committed files are (tests/data/gguf), which files hold
// a model of each supported type, and the texts their float64 goldens were run on.
#pragma once

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

#include <string>
#include <vector>

namespace headlens::test {

inline const std::string kGgufData = HEADLENS_TEST_DATA "/gguf/";

/// The models of tests/data/gguf without ".gguf", each with its golden in the .npz of that
/// name: the tiny Llama in the 8 types of 32 values a block, the 256-wide Llama in F16 and
/// the five K-quants, Qwen2 and GPT-2 in F32.
inline QStringList ggufModelFiles()
{
    QStringList files;
    for (const char *type : {"f32", "f16", "bf16", "q8_0", "q4_0", "q4_1", "q5_0", "q5_1"})
        files << QString("llama_tiny_%1").arg(type);
    for (const char *type : {"f16", "q2_k", "q3_k", "q4_k", "q5_k", "q6_k"})
        files << QString("llama_wide_%1").arg(type);
    files << "qwen2_tiny_f32"
          << "gpt2_tiny_f32";
    return files;
}

/// golden_texts.json: text k is the one ids_k, attention_k and logits_k of each golden hold.
inline std::vector<std::string> ggufGoldenTexts()
{
    QFile file(QString::fromStdString(kGgufData + "golden_texts.json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("no golden_texts.json");
    std::vector<std::string> texts;
    for (const QJsonValue &v : QJsonDocument::fromJson(file.readAll()).array())
        texts.push_back(v.toString().toStdString());
    return texts;
}

} // namespace headlens::test
