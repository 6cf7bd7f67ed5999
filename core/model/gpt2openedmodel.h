// Gpt2OpenedModel: a GPT-2 checkpoint as an OpenedModel (the GPT-2 side of ModelOpener).
#pragma once

#include "model/gpt2model.h"
#include "model/openedmodel.h"

namespace headlens {

/// Owns the Gpt2Model; each run keeps its Gpt2Run alive and refers to its attention tensor and
/// traced layer instead of copying them.
class Gpt2OpenedModel : public OpenedModel
{
public:
    explicit Gpt2OpenedModel(Gpt2Model model) : m_model(std::move(model)) {}

    std::string family() const override { return "GPT-2"; }
    std::string name() const override;
    int layers() const override { return m_model.config().nLayer; }
    std::vector<int> encode(const std::string &text) const override;
    std::shared_ptr<ModelRun> run(const std::vector<int> &tokenIds, int layer,
                                  const std::function<bool(double)> &progress) const override;

private:
    Gpt2Model m_model;
};

} // namespace headlens
