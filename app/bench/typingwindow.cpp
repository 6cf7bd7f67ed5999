// TypingWindow: GridHarness on the MainWindow, reading each delivered run's reused tokens.
#include "typingwindow.h"

#include "model/transformerrun.h"
#include "runner/tracerunner.h"

namespace headlens {

TypingWindow::TypingWindow(const std::string &modelDir) : m_harness(GridHost::MainWindow)
{
    m_state.modelPath = QString::fromStdString(modelDir);
    QObject::connect(m_harness.runner(), &TraceRunner::modelRunReady, &m_harness,
                     [this](std::shared_ptr<const ModelRun> run) {
                         m_reused = run && run->pass ? run->pass->reusedTokens : 0;
                     });
}

double TypingWindow::type(const std::string &text, int64_t &reused)
{
    m_state.text = QString::fromStdString(text);
    const Interaction interaction = m_harness.change(m_state);
    reused = m_reused;
    return interaction.latencyMs;
}

} // namespace headlens
