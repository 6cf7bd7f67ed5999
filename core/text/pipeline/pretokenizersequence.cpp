// PreTokenizerSequence: the pieces of each step fed to the next.
#include "text/pipeline/pretokenizersequence.h"

namespace headlens {

PreTokenizerSequence::PreTokenizerSequence(std::vector<std::shared_ptr<const PreTokenizer>> steps)
    : m_steps(std::move(steps))
{}

void PreTokenizerSequence::split(const Piece &piece, std::vector<Piece> &pieces) const
{
    std::vector<Piece> current{piece};
    std::vector<Piece> next;
    for (const auto &step : m_steps) {
        next.clear();
        for (const Piece &part : current)
            step->split(part, next);
        current.swap(next);
    }
    pieces.insert(pieces.end(), std::make_move_iterator(current.begin()),
                  std::make_move_iterator(current.end()));
}

} // namespace headlens
