// FourWaysPanel: the core's four implementations side by side, and h heads against one wide head.
#pragma once

#include "runner/traceanalysis.h"

#include <QTextBrowser>

#include <memory>

namespace headlens {

/// Shows ImplementationComparison (computed in the worker thread): each way's code, its largest
/// difference from the trace and its cost; then FLOPs and parameters of h heads of d_k against
/// one head of width h*d_k.
class FourWaysPanel : public QTextBrowser
{
    Q_OBJECT
public:
    explicit FourWaysPanel(QWidget *parent = nullptr);

    void setAnalysis(std::shared_ptr<const TraceAnalysis> analysis);
    void setFontScale(double scale);

private:
    void render();

    std::shared_ptr<const TraceAnalysis> m_analysis;
    double m_scale = 1.0;
};

} // namespace headlens
