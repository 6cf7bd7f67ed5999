// TensorExporter: the trace's numbers as .npy files, CSV tables or a JSON summary.
#pragma once

#include "attention/trace.h"

#include <QString>

namespace headlens {

/// Thin wrappers over the core's writers (TraceJson, NpyFile) plus a CSV of the weights that a
/// spreadsheet opens. Each throws InputError with a message for people.
class TensorExporter
{
public:
    /// Every tensor as <name>.npy and trace.json in `directory`.
    static void writeNpyDirectory(const Trace &trace, const QString &directory);
    /// The attention weights of sequence `b`: one row per (head, query, key) with labels.
    static void writeWeightsCsv(const Trace &trace, int b, const QString &path);
    /// TraceJson::summary: shapes, steps, statistics; no tensor values.
    static void writeJsonSummary(const Trace &trace, const QString &path);
};

} // namespace headlens
