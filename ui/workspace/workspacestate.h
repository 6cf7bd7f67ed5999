// WorkspaceState: every setting and text of one session, the content of a .headlens file.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/headintervention.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace headlens {

/// The lesson's sentence: where a new session starts.
inline const char *const kLessonSentence =
    "The tired robot dropped the heavy gear because it broke";

/// What a person set up: the layer's settings, the sentences (one sequence per line), the
/// optional key/value sentences for cross-attention and the weights file.
struct WorkspaceState
{
    AttentionConfig config;
    QString text = QString::fromUtf8(kLessonSentence);
    QString kvText; ///< keys/values, one sequence per line; used when crossAttention
    bool crossAttention = false;
    int batchIndex = 0;  ///< which sequence of the batch the views show
    QString weightsPath; ///< .npz with nn.MultiheadAttention weights; empty = seeded init
    /// A GPT-2 folder or a toy model .npz whose layer the views show; empty = the built-in
    /// layer above (config, weightsPath).
    QString modelPath;
    int modelLayer = 0; ///< 0-based layer of that model
    /// Heads ablated from the window's menus (layer 0 for the built-in layer, heads 0-based):
    /// every run of the session is of the model with these heads changed.
    std::vector<HeadIntervention> ablations;
    /// The model of the last run reads sentence pairs (an encoder): kvText is its sentence B
    /// and is sent with the text whether or not crossAttention is on. It follows the run, set
    /// by Workspace::setKvTextIsSentenceB, and is never saved: the model decides it, not a
    /// person.
    bool kvTextIsSentenceB = false;

    bool operator==(const WorkspaceState &other) const
    {
        return config == other.config && text == other.text && kvText == other.kvText &&
               crossAttention == other.crossAttention && batchIndex == other.batchIndex &&
               weightsPath == other.weightsPath && modelPath == other.modelPath &&
               modelLayer == other.modelLayer && ablations == other.ablations &&
               kvTextIsSentenceB == other.kvTextIsSentenceB;
    }
    bool operator!=(const WorkspaceState &other) const { return !(*this == other); }
};

} // namespace headlens
