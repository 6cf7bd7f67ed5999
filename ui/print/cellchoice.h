// CellChoice: the attention cell a printed handout works out by hand.
#pragma once

#include "attention/trace.h"

namespace headlens {

/// Head, query and key, 0-based.
struct CellChoice
{
    int head = 0;
    int query = 0;
    int key = 0;
    bool picked = false; ///< chosen by the person (in the window), not by strongest()

    /// The strongest weight of `head` in sequence `b`, among the queries that see more than
    /// one key (the first query of a causal mask gives its only key 1 whatever the head does).
    static CellChoice strongest(const Trace &trace, int b, int head);
};

} // namespace headlens
