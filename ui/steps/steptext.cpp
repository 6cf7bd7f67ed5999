// StepText: named shapes and numbered titles read from the trace.
#include "steps/steptext.h"

#include <QCoreApplication>

namespace headlens {

QString StepText::shape(const Trace &trace, const std::vector<TraceKey> &keys)
{
    if (keys.empty() || !trace.hasTensor(keys.front()))
        return QCoreApplication::translate("StepText", "text");
    return QString::fromStdString(keys.front().str() + " " +
                                  trace.tensor(keys.front()).shape().toString());
}

QString StepText::shapes(const Trace &trace, const TraceStep &step)
{
    return QCoreApplication::translate("StepText", "before  %1     →     after  %2")
        .arg(shape(trace, step.inputs), shape(trace, step.outputs));
}

QString StepText::title(const Trace &trace, int index)
{
    return QString("%1 / %2 · %3")
        .arg(index + 1)
        .arg(trace.steps.size())
        .arg(QString::fromStdString(trace.steps.at(size_t(index)).title));
}

} // namespace headlens
