// LensRequest: what a job asks to read of what the model writes (logit lens, logit attribution).
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

    bool wanted() const { return logitLens || !token.empty(); }
};

} // namespace headlens
