// ScratchCheckpoint: the folder named by the process, written, then removed without a word.
#include "scratchcheckpoint.h"

#include <filesystem>
#include <unistd.h>

namespace headlens {

ScratchCheckpoint::ScratchCheckpoint(const std::string &name, const CheckpointShape &shape,
                                     std::ostream &log)
    : m_dir((std::filesystem::temp_directory_path() /
             ("headlens-bench-" + name + "-" + std::to_string(getpid())))
                .string())
{
    log << name << " writing " << m_dir << std::endl;
    m_fileBytes = RandomCheckpoint::write(m_dir, shape);
}

ScratchCheckpoint::~ScratchCheckpoint()
{
    std::error_code error; // a folder left in /tmp is no reason to fail a benchmark
    std::filesystem::remove_all(m_dir, error);
}

CheckpointShape ScratchCheckpoint::gpt2Small(bool quick)
{
    CheckpointShape shape; // GPT-2 small, F32
    if (quick) {
        shape.layers = 4;
        shape.dModel = 256;
        shape.heads = shape.kvHeads = 4;
    }
    return shape;
}

} // namespace headlens
