// RegionExport: what Save region writes of a long text's pinned head, and the file's name.
#pragma once

#include "attention/headtiles.h"
#include "attention/tileregion.h"
#include "model/modelrun.h"

#include <QCoreApplication>
#include <QString>

#include <cstdint>
#include <memory>

namespace headlens {

class TiledHeadView;

/// The pinned head over the region on screen as a float32 .npy, never the whole (n, n) of a
/// long text (4 GiB at 32,768 tokens). A square region of at most exactSide tokens a side is
/// saved weight by weight, exact (NaN where masked). A larger one, or a band, is saved as the
/// cells drawn: the view's picture, or the run's grid while the picture is computed, each cell
/// the largest or the mean weight of its bin x bin tokens, the pooling and bin in the file's
/// name ("layer0_head3_q0-32768_k0-32768_max93.npy"; a band's columns are distances back:
/// "layer0_head3_band_q0-32768_d0-32768_max93.npy"). Decided when made, from the view as it
/// is then: a picture that arrives later does not change what is written.
class RegionExport
{
    Q_DECLARE_TR_FUNCTIONS(RegionExport)
public:
    RegionExport(const TiledHeadView &view, HeadTiles::Pooling pooling, int64_t exactSide);

    /// Why nothing can be saved now, and what to do; empty when something can.
    const QString &problem() const { return m_problem; }
    /// The name the file is offered under.
    QString fileName() const;
    /// Writes the values at `path` atomically. Returns what went wrong, or an empty string.
    QString write(const QString &path) const;

private:
    std::shared_ptr<const ModelRun> m_run;
    int m_layer = 0, m_head = 0;
    bool m_band = false;
    HeadTiles::Pooling m_pooling;
    TileRegion m_region;   ///< what the values cover, in tokens (a band's columns: distances)
    int64_t m_binSize = 1; ///< tokens a cell covers along each side
    /// The cells drawn (the picture's or the grid's), copied when made; empty for every weight
    /// of m_region, computed from the run's tiles when written.
    RowMatrix m_cells;
    QString m_problem;
};

} // namespace headlens
