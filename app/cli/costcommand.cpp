// CostCommand: one line per choice of K/V heads, the KV cache in bytes and GiB.
#include "costcommand.h"
#include "util/bytesize.h"

#include "attention/attentioncost.h"
#include "text/tokenizer.h"
#include "util/inputerror.h"

#include <cstdio>
#include <string>

namespace headlens {

namespace {

double bytesPerValue(const std::string &dtype)
{
    return dtype == "f32" ? 4.0 : dtype == "int8" ? 1.0 : 2.0;
}

/// "1.25 GiB", "640.00 KiB", "512 bytes": two decimals, binary units.
std::string bytesText(double bytes)
{
    return formatBytes(bytes, 2);
}

std::string line(const char *label, const AttentionCost &c)
{
    char text[256];
    std::snprintf(text, sizeof text, "  %-20s %9lld %16lld %14.4g %18s %18s\n", label,
                  static_cast<long long>(c.kvHeads), static_cast<long long>(c.parameters), c.flops,
                  bytesText(c.kvCacheBytesPerToken).c_str(), bytesText(c.kvCacheBytes).c_str());
    return text;
}

/// --cost-tokens, or the tokens of the first text, or 1.
int64_t contextLength(const CommandLineRequest &request)
{
    if (request.cost.tokens > 0)
        return request.cost.tokens;
    if (request.texts.empty())
        return 1;
    const auto tokens = Tokenizer::tokenize(request.texts.front(), request.config.tokenizer);
    return std::max<int64_t>(1, static_cast<int64_t>(tokens.size()));
}

} // namespace

int CostCommand::run(const CommandLineRequest &request)
{
    const AttentionConfig &config = request.config;
    if (auto problem = config.validate())
        throw InputError(problem->message);
    const CostSettings settings = CostSettings::of(
        config, contextLength(request), request.cost.layers, bytesPerValue(request.cost.dtype));
    const CostComparison cost = compareAttentionCosts(settings);
    m_out << "Attention cost: d_model=" << settings.dModel << ", h=" << settings.heads
          << ", d_k=" << settings.dK << ", d_v=" << settings.dV << ", n=" << settings.tokens
          << " tokens, " << settings.layers << (settings.layers == 1 ? " layer, " : " layers, ")
          << request.cost.dtype << " (" << settings.bytesPerValue << " bytes per value)\n\n";
    char header[256];
    std::snprintf(header, sizeof header, "  %-20s %9s %16s %14s %18s %18s\n", "", "K/V heads",
                  "parameters", "FLOPs", "KV cache / token", "KV cache (n)");
    m_out << header << line("multi-head (MHA)", cost.multiHead)
          << line(settings.kvHeads == settings.heads ? "these settings (MHA)"
                  : settings.kvHeads == 1            ? "these settings (MQA)"
                                                     : "these settings (GQA)",
                  cost.chosen)
          << line("multi-query (MQA)", cost.multiQuery);
    m_out << "\nKV cache per token and layer = h_kv x (d_k + d_v) x bytes per value = "
          << bytesText(cost.chosen.kvCacheBytesPerTokenPerLayer) << "; for the context "
          << static_cast<long long>(cost.chosen.kvCacheBytes) << " bytes";
    if (settings.kvHeads < settings.heads)
        m_out << ", " << cost.multiHead.kvCacheBytes / cost.chosen.kvCacheBytes
              << " times less than multi-head attention";
    m_out << ".\n";
    return 0;
}

} // namespace headlens
