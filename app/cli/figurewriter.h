// FigureWriter: headlens-cli's --figures, drawn by the window's own code on an offscreen canvas.
#pragma once

namespace headlens {

struct CommandLineRequest;
struct TraceRun;

/// Writes what --figure asks for (by default heads.<format> and head_<i>.<format>) in every
/// --figures format into --export-dir (one sub-folder seq_<b> per sequence when the batch has
/// several), at --figure-size and --dpi. Starts an offscreen QApplication when none runs, so no
/// display is needed. Returns the number of files written. Throws InputError for an unknown
/// format, a head or step that is not there, a model figure without --model, or a file that
/// cannot be written.
int writeFigures(const TraceRun &run, const CommandLineRequest &request);

/// Throws the InputError writeFigures would for a head or step that is not there or a model
/// figure without a model, before anything is printed or written.
void checkFigures(const TraceRun &run, const CommandLineRequest &request);

} // namespace headlens
