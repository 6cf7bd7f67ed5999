// CoreProblem: a seeded random input and a PyTorch-initialised layer of benchmark size.
#include "coreproblem.h"

#include "attention/inputbuilder.h"
#include "util/counterrandom.h"
#include "util/inputerror.h"

namespace headlens {

namespace {

// The benchmark measures speed, it does not protect a person from a huge request: the largest
// case (n=2048, d_model=1024, h=16) needs about 1.3 GiB by the core's estimate, more than the
// default budget leaves room for on the way up.
constexpr int64_t kBenchMemoryBudget = int64_t(64) << 30;

constexpr uint64_t kInputStream = 0xbe4c;

} // namespace

CoreProblem CoreProblem::make(const CoreShape &shape)
{
    CoreProblem p;
    p.config.dModel = shape.dModel;
    p.config.heads = shape.heads;
    p.config.memoryBudgetBytes = kBenchMemoryBudget;
    if (auto problem = p.config.validate())
        throw InputError(problem->message);
    p.weights = AttentionWeights::initialize(p.config, p.config.inputWidth());

    const CounterRandom random(p.config.seed, kInputStream);
    std::vector<float> values(static_cast<size_t>(shape.n) * static_cast<size_t>(shape.dModel));
    for (size_t i = 0; i < values.size(); ++i)
        values[i] = random.symmetric(i, 1.0f);
    Tensor x(Shape{{"b", 1}, {"n", shape.n}, {"d_model", shape.dModel}}, std::move(values));
    p.input = InputBuilder::fromTensors(p.config, std::move(x));
    return p;
}

std::string toString(const CoreShape &shape)
{
    return "n=" + std::to_string(shape.n) + " d_model=" + std::to_string(shape.dModel) +
           " h=" + std::to_string(shape.heads);
}

} // namespace headlens
