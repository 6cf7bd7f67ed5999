// ScratchCheckpoint: a RandomCheckpoint in a temporary folder for the length of one suite.
#pragma once

#include "randomcheckpoint.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace headlens {

/// Writes the checkpoint into <temp>/headlens-bench-<name>-<pid> (saying so on `log`) and
/// removes the folder when it goes.
class ScratchCheckpoint
{
public:
    ScratchCheckpoint(const std::string &name, const CheckpointShape &shape, std::ostream &log);
    ~ScratchCheckpoint();
    ScratchCheckpoint(const ScratchCheckpoint &) = delete;
    ScratchCheckpoint &operator=(const ScratchCheckpoint &) = delete;

    /// GPT-2 small's shapes in F32 (the suites' model), or with `quick` 4 layers x 4 heads of
    /// d_model 256.
    static CheckpointShape gpt2Small(bool quick);

    const std::string &dir() const { return m_dir; }
    /// The bytes of its model.safetensors.
    int64_t fileBytes() const { return m_fileBytes; }

private:
    std::string m_dir;
    int64_t m_fileBytes = 0;
};

} // namespace headlens
