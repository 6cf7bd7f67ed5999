// WorkspaceFile: reads and writes a .headlens workspace (JSON with a format_version).
#pragma once

#include "workspace/workspacestate.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace headlens {

/// The .headlens format: one JSON object with "format_version", "settings", "texts",
/// "weights" and (optional) "model" {"path", "layer"} and "ablations" [{"layer", "head",
/// "kind"}] (zero, mean or keep-only: the heads ablated from the window's menus). Saving is atomic
/// (QSaveFile): a crash never leaves half a workspace behind. Version 2 added the settings
/// kv_heads, attention_positions, rope_theta, rope_position_offset and window; version 1 files open
/// with their defaults (and a HeadLens that reads only version 1 refuses a version 2 file rather
/// than drop them).
class WorkspaceFile
{
public:
    static constexpr int kFormatVersion = 2;
    /// Largest workspace load() reads: settings and texts take a few KB; the texts of a whole
    /// book still fit.
    static constexpr uint64_t kMaxFileBytes = uint64_t(16) << 20;

    static QJsonObject toJson(const WorkspaceState &state);
    /// Throws InputError saying what is wrong (not JSON, newer version, bad value).
    static WorkspaceState fromJson(const QJsonObject &json);

    /// Throws InputError when the file cannot be written.
    static void save(const QString &path, const WorkspaceState &state);
    /// Throws InputError when the file cannot be read, is larger than kMaxFileBytes (checked
    /// before reading) or cannot be understood; nothing else changes.
    static WorkspaceState load(const QString &path);
    /// load() of `bytes`, the whole file; messages start with `sourceName`. Fuzzed by
    /// tests/fuzz.
    static WorkspaceState parse(const QByteArray &bytes, const QString &sourceName);
};

} // namespace headlens
