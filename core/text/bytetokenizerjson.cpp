// byteTokenizerJson: a BPE that learned nothing, written by the trained BPEs' writer.
#include "text/bytetokenizerjson.h"

#include "text/pipeline/bytelevelalphabet.h"
#include "text/train/bpetokenizerjsonwriter.h"

namespace headlens {

std::string byteTokenizerJson()
{
    // Ids in byte order (a trained BPE lists its alphabet by code point instead), no merges,
    // no special tokens: every text encodes to its bytes.
    const ByteLevelAlphabet alphabet;
    BpeTrainingResult bytes;
    for (int byte = 0; byte < 256; ++byte)
        bytes.tokens.push_back(alphabet.symbol(static_cast<unsigned char>(byte)));
    bytes.vocabularySizeAsked = 256;
    return BpeTokenizerJsonWriter::toJson(bytes);
}

} // namespace headlens
