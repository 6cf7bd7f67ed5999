// runDatasetExperiment: a head analysis of every prompt of a dataset, then its mean and spread.
#pragma once

#include "attention/headintervention.h"
#include "corpus/datasetfile.h"
#include "model/openedmodel.h"

#include <functional>
#include <string>
#include <vector>

namespace headlens {

struct DatasetRequest
{
    /// Texts: each head's importance with the head zero-ablated, or (Mean) replaced by its mean
    /// output over every token of every prompt of the dataset.
    InterventionKind ablation = InterventionKind::Zero;
    /// Texts: also the direct logit attribution of logit(dlaToken) [- logit(dlaWrong)] at each
    /// prompt's last token (decoders); empty: none.
    std::string dlaToken;
    std::string dlaWrong;
    /// Texts: also each head's atlas scores measured on each prompt (textAtlas: first token,
    /// self, fixed offset, local, [CLS], [SEP], punctuation; a score no prompt can measure,
    /// as a decoder's [CLS], is left out). The repeated-token scores do not depend on the
    /// prompts: headlens-cli --atlas gives them.
    bool atlas = false;
};

/// One analysis over the prompts measured: P prompts, L layers, h heads.
struct DatasetMeasure
{
    std::string name;    ///< "importance", "dla", "patching": the exported files' stem
    std::string meaning; ///< what one value is, for the table's title and the CLI reference
    Tensor perPrompt;    ///< (P, L, h)
    RowMatrix mean;      ///< (L, h) over the prompts
    RowMatrix spread;    ///< (L, h) the prompts' sample standard deviation (0 for one prompt)
};

struct DatasetResult
{
    int layers = 0;
    int heads = 0;
    std::vector<int64_t> lines;       ///< (P) the file lines of the prompts measured
    std::vector<std::string> skipped; ///< a sentence per prompt left out, naming its line
    std::vector<DatasetMeasure> measures;
    /// (L, h, d_v) each head's mean output over the dataset's tokens (a Mean request's
    /// replacement); empty otherwise.
    Tensor headOutputMeans;
};

/// Texts: each prompt's head importance (OpenedModel::importance) and, when asked, its direct
/// logit attribution; pairs: each pair's patching map (OpenedModel::patching, the corrupted
/// text patched from the clean one, PatchingMap::restored). A prompt the model refuses (one
/// token, a pair of two lengths, answers that barely differ) is left out with a sentence in
/// `skipped`; when every prompt is, throws InputError with the first sentence. `progress` gets
/// the fraction done; returning false throws Cancelled.
DatasetResult runDatasetExperiment(const OpenedModel &model, const Dataset &dataset,
                                   const DatasetRequest &request,
                                   const std::function<bool(double)> &progress);

/// The mean and sample standard deviation over axis 0 of `perPrompt` (P, L, h), in double. A
/// NaN value (a score the prompt cannot measure, as punctuation in a text without any) is left
/// out of its head's statistics; a head with no value left is NaN, one with one value has no
/// spread (0).
void meanAndSpread(const Tensor &perPrompt, RowMatrix &mean, RowMatrix &spread);

} // namespace headlens
