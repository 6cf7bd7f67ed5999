// LensRequest: what a job asks to read of what the model writes (logit lens, logit attribution)
// and of what its heads do (the head atlas).
#pragma once

#include <string>

namespace headlens {

/// Plain values a TraceJob carries; Session computes them after the model's run, in the same
/// worker, with the same progress and Cancel (models with an output head only).
struct LensRequest
{
    bool logitLens = false; ///< LogitLens of the job's text
    int lensTop = 5;        ///< the lens's tokens per stage and position
    /// Direct logit attribution of this token's logit (one token of the model's vocabulary, as
    /// text: GPT-2's words start with a space); empty for none.
    std::string token;
    std::string wrong;   ///< with `token`: attribute logit(token) - logit(wrong); empty: none
    int position = -1;   ///< the row attributed, -1 the last token
    int headTokens = 10; ///< the tokens each head promotes and suppresses most
    /// The head atlas (computeHeadAtlas) of the model, its positional scores on the job's text.
    bool atlas = false;
    /// Attention rollout and value-weighted attention of the job's run (AttentionFlow).
    bool flow = false;
    /// The QK and OV circuits (HeadCircuits) of this head, from 0; -1: none.
    int circuitsLayer = -1;
    int circuitsHead = -1;

    bool wanted() const
    {
        return logitLens || !token.empty() || atlas || flow || circuitsLayer >= 0;
    }
    /// The option that asked for the first analysis wanted, for messages: "--logit-lens",
    /// "--dla", "--atlas", "--rollout", "--circuits".
    const char *firstOption() const
    {
        return logitLens        ? "--logit-lens"
               : !token.empty() ? "--dla"
               : atlas          ? "--atlas"
               : flow           ? "--rollout"
                                : "--circuits";
    }
};

} // namespace headlens
