// FigureWriter: headlens-cli's --figures, drawn by the window's own code on an offscreen canvas.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace headlens {

class Trace;

/// Writes heads.<format> and head_<i>.<format> for every requested format into `directory`
/// (one sub-folder seq_<b> per sequence when the batch has several). Starts an offscreen
/// QApplication when none runs, so no display is needed. Returns the number of files written.
/// Throws InputError for an unknown format or a file that cannot be written.
int writeFigures(std::shared_ptr<const Trace> trace, const std::string &directory,
                 const std::vector<std::string> &formats);

} // namespace headlens
