// WeightsPolicy: the one rule for a weights file whose sizes differ from the settings.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/weightsfile.h"
#include "session/chosensettings.h"

#include <string>

namespace headlens {

/// A weights file fixes d_model, d_in, the biases and how many query heads share each K/V head
/// (h / h_kv, read from the rows of W_Q and W_K; the heads themselves stay the person's). What
/// the person did not choose is taken from the file; what they chose must fit it, or the job is
/// refused with a message naming the file and what to set. headlens-cli and the window both
/// follow it (Session).
class WeightsPolicy
{
public:
    /// `config` with d_model, d_in (0 when equal to d_model), bias and h_kv = h / (h / h_kv of
    /// the file) taken from `loaded` wherever `chosen` leaves them open (h_kv only when the
    /// file's ratio divides config.heads: otherwise check() refuses).
    static AttentionConfig adopt(const LoadedWeights &loaded, AttentionConfig config,
                                 ChosenSettings chosen);
    /// Throws InputError "<path> holds a layer with d_model N that does not fit the settings:
    /// <which matrix and what to set>" when `config` cannot use the file's matrices, or
    /// "<path> holds grouped-query weights ..." when its query heads per K/V head do not divide
    /// config.heads.
    static void check(const LoadedWeights &loaded, const AttentionConfig &config,
                      const std::string &path);
};

} // namespace headlens
