// computeHeadAtlas: the head atlas of a model, from its run on a text and on repeated tokens.
#pragma once

#include "model/headatlas.h"
#include "model/modelrun.h"
#include "model/openedmodel.h"

#include <cstdint>
#include <functional>

namespace headlens {

/// What the atlas probes with besides the text.
struct AtlasProbe
{
    /// Sequences r r of random tokens (OpenedModel::probeVocabulary) whose scores are averaged;
    /// each run r is kLength tokens, or half of what the model reads when that is shorter.
    int runs = 4;
    static constexpr int kLength = 24;
    uint64_t seed = 0;
};

/// The scores `run`'s text measures alone (first token, self, fixed offset, local, [CLS],
/// [SEP], punctuation) with their chances, each head's offset and mean distance; the
/// repeated-token scores and their chances NaN, no types. Throws InputError for a text of one
/// token.
HeadAtlas textAtlas(const ModelRun &run);

/// The head atlas of `model`: the previous-token, duplicate-token and induction scores on
/// `probe`'s repeated random tokens, wrapped in the special tokens encode() adds (BOS,
/// [CLS] ... [SEP]); the positional and role scores on `run`, a run of `model` on the
/// text the atlas is for (its attention, HeadStats and TokenRoles; run again without them
/// when it changed heads, since the atlas is of the model as it is). Each score's chance is the
/// same score of a head attending evenly on the same probe. Throws InputError (a model that
/// reads fewer than 5 tokens, or a text of one token), Cancelled (when `progress` returns
/// false; it goes from 0 to 1 over the probe runs).
HeadAtlas computeHeadAtlas(const OpenedModel &model, const ModelRun &run, const AtlasProbe &probe,
                           const std::function<bool(double)> &progress);

} // namespace headlens
