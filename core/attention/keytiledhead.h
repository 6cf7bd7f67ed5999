// KeyTiledHead: one head of a pass that keeps no matrix, in tiles of queries by keys.
#pragma once

#include "attention/headpass.h"

namespace headlens {

/// Whether attendKeyTiled can take the heads of `pass`: it observes its rows (a tiled run keeps
/// what its observer takes from them, not the rows) and has nothing the tiles leave out (no
/// dropout, no mask beyond the rule's causal mask and window, no trace keeping every score).
bool keyTiledFits(const HeadPass &pass);

/// Head `head` of sequence `b`: its context rows (n, d_v) into `context`, and every block of its
/// rows shown to pass.observe, in tiles of 256 queries by 256 keys.
///
/// Why tiles of keys: a block of 64 query rows against all 32,768 keys of a long text is an
/// 8 MiB block of scores, which every step (softmax, observer, P V) read from memory again, and
/// each such block packed the keys again for its 64 rows (19% of a 32k layer, perf). In tiles
/// the scores stay in L2 and a block of keys is packed once for four times the rows. The price
/// is each row's normaliser found first, in a sweep of products of its own, before the second
/// sweep makes the weights: three products per tile instead of two. The 32,768-token pass of
/// Qwen2.5-0.5B's shapes took 514 s instead of 946 s (two threads, Zen 5, with the MLP in
/// blocks of rows too).
///
/// Precondition: keyTiledFits(pass).
void attendKeyTiled(const HeadPass &pass, Eigen::Ref<RowMatrix> context, int64_t b, int64_t head);

} // namespace headlens
