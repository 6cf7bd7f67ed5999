// HandoutWriter: the whole walk-through as one PDF (a title page, then a page per step).
#pragma once

#include "plot/plotstyle.h"
#include "runner/traceanalysis.h"

#include <QSize>
#include <QString>

#include <memory>

class QWidget;

namespace headlens {

class PipelineView;

/// Lays out its own PipelineView off screen (so the window is not disturbed) and prints every
/// step of the trace on its own page, after a title page with the settings. Needs a
/// QApplication (QT_QPA_PLATFORM=offscreen is enough).
class HandoutWriter
{
public:
    HandoutWriter(std::shared_ptr<const Trace> trace, std::shared_ptr<const TraceAnalysis> analysis,
                  int batch, PlotStyle style);

    /// Writes the handout; returns the number of pages written (steps + 1). Throws InputError.
    int write(const QString &path, QSize viewSize = QSize(1600, 1000)) const;

    /// One step as shown (the view as it is) to .png, .svg or .pdf. Throws InputError.
    static void writeStep(QWidget *view, const QString &path);

    /// The title page's lines: the text, the sizes and the settings.
    QStringList settingsLines() const;

private:
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const TraceAnalysis> m_analysis;
    int m_batch = 0;
    PlotStyle m_style;
};

} // namespace headlens
