// PatchingMap: which heads carry the answer: one run's z_h patched into the other's, head by head.
#pragma once

#include "tensor/tensor.h"

#include <string>
#include <vector>

namespace headlens {

/// Which way the heads' outputs go. Clean into corrupted (denoising) finds the heads that are
/// enough to bring the answer back; corrupted into clean (noising) the heads it cannot do
/// without (Heimersheim and Nanda 2024, "How to use and interpret activation patching").
enum class PatchDirection
{
    CleanIntoCorrupt,
    CorruptIntoClean,
};

/// "restore" (clean into corrupted) or "break" (corrupted into clean), as --patch-direction.
inline std::string toString(PatchDirection direction)
{
    return direction == PatchDirection::CorruptIntoClean ? "break" : "restore";
}

/// What a patching map asks: the metric's two tokens, the direction, and the head whose
/// positions are also patched one at a time (-1, -1: the map's strongest head).
struct PatchingQuestion
{
    int answer = -1; ///< token ids of the two answers
    int wrong = -1;
    PatchDirection direction = PatchDirection::CleanIntoCorrupt;
    int positionsLayer = -1; ///< 0-based
    int positionsHead = -1;  ///< 0-based
};

/// The least |m_clean - m_corrupt| a patching map shares out: ln 2. m is a log-odds (of the
/// answer over the wrong one), so the difference is the log of how much the corruption changes
/// those odds; ln 2 is a factor of 2 (one bit). Below it the two texts barely disagree about the
/// answer and each share divides by a number no larger than what one head alone moves the
/// metric by: on the tiny test GPT-2 a difference of 0.08 gave shares of 1.148 and -0.175.
inline constexpr double kMinPatchingDifference = 0.69314718055994531; // ln 2

/// Activation patching (Wang et al. 2022; Meng et al. 2022) with the metric m = logit(answer) -
/// logit(wrong) at the position predicted from (a decoder's last token, an encoder's first mask).
/// L = layers, h = heads.
struct PatchingMap
{
    /// (L, h): the share of the clean-vs-corrupted difference the patch of that head alone
    /// moves. Clean into corrupted: (m_patched - m_corrupt) / (m_clean - m_corrupt), 1 = it
    /// restores the clean difference. Corrupted into clean: (m_clean - m_patched) / (m_clean -
    /// m_corrupt), 1 = it removes it. 0 = it changes nothing either way.
    RowMatrix restored;
    double cleanMetric = 0.0;   ///< m on the clean text
    double corruptMetric = 0.0; ///< m on the corrupted text
    int answer = -1;            ///< token ids of the two answers
    int wrong = -1;
    int position = 0; ///< the position whose logits m reads (0-based)
    PatchDirection direction = PatchDirection::CleanIntoCorrupt;
    /// The same share with head (positionsLayer, positionsHead)'s output patched at one position
    /// only, one value per position of the text.
    std::vector<float> byPosition;
    int positionsLayer = 0;
    int positionsHead = 0;
    /// The tokens of the run patched into, one label per position (Session fills them in).
    std::vector<std::string> positionTokens;

    /// Throws InputError saying both metrics, their difference and how far it falls short when
    /// |cleanMetric - corruptMetric| < kMinPatchingDifference. Precondition: the metrics and
    /// position are set.
    void checkDifference() const;

    /// positionsLayer and positionsHead: the question's head, or, when it names none, the head
    /// whose patch moves the metric most (the largest |restored|). Precondition: restored set.
    void choosePositionsHead(const PatchingQuestion &question)
    {
        if (question.positionsLayer >= 0) {
            positionsLayer = question.positionsLayer;
            positionsHead = question.positionsHead;
            return;
        }
        Eigen::Index layer = 0, head = 0;
        restored.cwiseAbs().maxCoeff(&layer, &head);
        positionsLayer = int(layer);
        positionsHead = int(head);
    }
};

} // namespace headlens
