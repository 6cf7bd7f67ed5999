// FigureWriter: headlens-cli's --figures and --handout, drawn by the window's own code offscreen.
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

/// Writes the pipeline handout of `run`'s trace (its first sequence) to --handout on --page
/// (--landscape), as `headlens --handout` does, with an offscreen QApplication when none runs.
/// Returns the number of pages. Throws InputError for a file that cannot be written.
int writeHandout(const TraceRun &run, const CommandLineRequest &request);

/// Throws the InputError writeFigures would for a head or step that is not there or a model
/// figure without a model, before anything is printed or written.
void checkFigures(const TraceRun &run, const CommandLineRequest &request);

} // namespace headlens
