// CorpusExport: a corpus summary as files: one CSV row per head, the distances and the map.
#pragma once

#include "corpus/corpussummary.h"

#include <string>

namespace headlens {

/// The files headlens-cli --corpus and the window's corpus view write. Heads are numbered from
/// 1 and layers from 0, as --stats prints them; rows follow layer * h + head, the order of the
/// .npy arrays' axes.
class CorpusExport
{
public:
    /// "layer,head,entropy,mean_distance,previous_token,first_token,diagonal,max_weight,
    /// sep_share,punctuation_share,induction,map_x,map_y" then one row per head; NaN (a share
    /// the corpus has no token for) is written as an empty field. An encoder's first token is
    /// its [CLS] (<s>), so first_token is also its [CLS] share; max_weight leaves out the rows
    /// with a single visible key (HeadStats::maxWeight).
    static std::string csv(const CorpusSummary &summary);
    /// Creates `dir` if needed (as every export does) and writes dir/corpus_heads.csv,
    /// dir/corpus_distances.npy (L*h, L*h) and dir/corpus_map.npy (L*h, 2), float32, each
    /// atomically. Throws InputError naming a folder it cannot create or a file it cannot write.
    static void write(const CorpusSummary &summary, const std::string &dir);
};

} // namespace headlens
