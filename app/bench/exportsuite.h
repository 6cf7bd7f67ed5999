// ExportSuite: writing the heads grid as PNG and as PDF, as File > Export view does.
#pragma once

#include "suite.h"

namespace headlens {

/// "export_png" and "export_pdf" rows: parameters n, d_model, h of the grid on screen (one
/// GridHarness at n=512, h=12, d_model=768; --quick: n=32, h=8, d_model=512); timing =
/// FigureExporter::writeWidget to a temporary file; metric file_bytes. Needs a QApplication.
class ExportSuite : public Suite
{
public:
    std::string name() const override { return "export"; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;
};

} // namespace headlens
