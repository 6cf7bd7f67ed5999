#!/usr/bin/env node
// check_gguf_files.mjs: reads every .gguf file that make_gguf_tiny.py wrote with Hugging Face's
// @huggingface/gguf parser (a reader written apart from the script's writer) and checks that
// each parses and holds what the script meant to write: the versions and alignments, every
// tensor's offset aligned and its bytes inside the file without overlapping the next, the
// quants files' tensor names, types and shapes, and for the model files the metadata keys with
// their GGUF value types and every tensor's name, type and shape as derived from the
// hyperparameters (llama.cpp's names; 1-D tensors F32, the rest in the file's type).
//
// Optional: nothing in the build or the tests needs it. The package is not a dependency of
// HeadLens; install it into a folder of your choice and name that folder with --prefix:
//
//   npm install --prefix /tmp/ggufjs @huggingface/gguf
//   node scripts/check_gguf_files.mjs --prefix /tmp/ggufjs [tests/data/gguf]
//
// Exits 0 when every file is as intended, 1 when one is not, 2 when the package is missing.
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
let prefix = null;
const folders = [];
for (let i = 0; i < args.length; ++i) {
    if (args[i] === "--prefix") prefix = args[++i];
    else if (args[i] === "--help" || args[i] === "-h") {
        console.log("usage: node scripts/check_gguf_files.mjs [--prefix DIR] [FOLDER]\n" +
            "  FOLDER  the files of make_gguf_tiny.py (default tests/data/gguf)\n" +
            "  DIR     where `npm install --prefix DIR @huggingface/gguf` put the parser");
        process.exit(0);
    } else folders.push(args[i]);
}
const folder = resolve(folders[0] ?? "tests/data/gguf");

async function loadParser() {
    const candidates = [];
    if (prefix) candidates.push(pathToFileURL(join(resolve(prefix), "node_modules", "@huggingface",
                                                   "gguf", "dist", "index.mjs")).href);
    candidates.push("@huggingface/gguf");
    for (const c of candidates) {
        try {
            return await import(c);
        } catch {
            // try the next
        }
    }
    console.error("check_gguf_files.mjs needs the npm package @huggingface/gguf, which is not " +
        "installed where it looked" + (prefix ? ` (--prefix ${prefix})` : "") + ". Install it " +
        "into a folder of your choice and name that folder:\n\n" +
        "  npm install --prefix /tmp/ggufjs @huggingface/gguf\n" +
        "  node scripts/check_gguf_files.mjs --prefix /tmp/ggufjs " +
        (folders[0] ?? "tests/data/gguf"));
    process.exit(2);
}

const { gguf, GGMLQuantizationType: Q, GGUFValueType: V } = await loadParser();

// ggml's (values per block, bytes per block) of the types the files use (ggml-common.h).
const BLOCK = {
    F32: [1, 4], F16: [1, 2], BF16: [1, 2], Q4_0: [32, 18], Q4_1: [32, 20], Q5_0: [32, 22],
    Q5_1: [32, 24], Q8_0: [32, 34], Q2_K: [256, 84], Q3_K: [256, 110], Q4_K: [256, 144],
    Q5_K: [256, 176], Q6_K: [256, 210],
};
// llama.h's llama_ftype for a file whose 2-D tensors are all of one type.
const FILE_TYPE = {
    F32: 0, F16: 1, Q4_0: 2, Q4_1: 3, Q8_0: 7, Q5_0: 8, Q5_1: 9, Q2_K: 10, Q3_K: 11, Q4_K: 14,
    Q5_K: 16, Q6_K: 18, BF16: 32,
};
const QUANT_TYPES = ["F32", "F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q2_K", "Q3_K",
                     "Q4_K", "Q5_K", "Q6_K"];

const failures = [];
function expect(ok, file, what) {
    if (!ok) failures.push(`${file}: ${what}`);
    return ok;
}

function nbytes(type, shape) {
    const [block, size] = BLOCK[type];
    const n = shape.reduce((a, b) => a * b, 1);
    return (n / block) * size;
}

/// The layout: version, alignment, aligned offsets, no overlaps, the file ending where the
/// last tensor's padding does.
function checkLayout(file, parsed, version, alignment) {
    const { metadata, tensorInfos, tensorDataOffset } = parsed;
    expect(metadata.version === version, file, `version ${metadata.version}, not ${version}`);
    const align = BigInt(alignment);
    expect(tensorDataOffset % align === 0n, file, `data section at ${tensorDataOffset}`);
    let end = 0n;
    const sorted = [...tensorInfos].sort((a, b) => (a.offset < b.offset ? -1 : 1));
    for (const t of sorted) {
        const type = Q[t.dtype];
        if (!expect(type in BLOCK, file, `${t.name} has type ${t.dtype}`)) continue;
        const shape = t.shape.map(Number);
        expect(t.offset % align === 0n, file, `${t.name} at offset ${t.offset}`);
        expect(t.offset >= end, file, `${t.name} overlaps the tensor before it`);
        expect(shape[0] % BLOCK[type][0] === 0, file, `${t.name}: ne[0] ${shape[0]} vs ${type}`);
        end = t.offset + BigInt(nbytes(type, shape));
        end += (align - (end % align)) % align;
    }
    const size = BigInt(statSync(join(folder, file)).size);
    expect(tensorDataOffset + end === size, file,
        `the tensors end at ${tensorDataOffset + end}, the file at ${size}`);
}

function typed(parsed, file, key, type, subType) {
    const entry = parsed.typedMetadata[key];
    if (!expect(entry !== undefined, file, `no ${key}`)) return undefined;
    expect(entry.type === type, file, `${key} is ${V[entry.type]}, not ${V[type]}`);
    if (subType !== undefined)
        expect(entry.subType === subType, file,
            `${key} holds ${V[entry.subType]}, not ${V[subType]}`);
    return entry.value;
}

/// Every tensor a model of these hyperparameters has in llama.cpp's names, PyTorch-ordered
/// shapes reversed into GGUF's ne (innermost first).
function expectedTensors(arch, m) {
    const t = new Map();
    const d = m.embd, v = m.vocab;
    t.set("token_embd.weight", [d, v]);
    if (arch === "gpt2") t.set("position_embd.weight", [d, m.ctx]);
    for (let i = 0; i < m.layers; ++i) {
        const b = `blk.${i}.`;
        if (arch === "gpt2") {
            for (const [name, ne] of [["attn_norm", [d]], ["attn_qkv", [d, 3 * d]],
                                      ["attn_output", [d, d]], ["ffn_norm", [d]],
                                      ["ffn_up", [d, m.ff]], ["ffn_down", [m.ff, d]]]) {
                t.set(b + name + ".weight", ne);
                t.set(b + name + ".bias", [ne[ne.length - 1]]);
            }
            continue;
        }
        const q = m.heads * m.headDim, kv = m.kvHeads * m.headDim;
        t.set(b + "attn_norm.weight", [d]);
        t.set(b + "attn_q.weight", [d, q]);
        t.set(b + "attn_k.weight", [d, kv]);
        t.set(b + "attn_v.weight", [d, kv]);
        t.set(b + "attn_output.weight", [q, d]);
        if (arch === "qwen2") {
            t.set(b + "attn_q.bias", [q]);
            t.set(b + "attn_k.bias", [kv]);
            t.set(b + "attn_v.bias", [kv]);
        }
        t.set(b + "ffn_norm.weight", [d]);
        t.set(b + "ffn_gate.weight", [d, m.ff]);
        t.set(b + "ffn_up.weight", [d, m.ff]);
        t.set(b + "ffn_down.weight", [m.ff, d]);
    }
    t.set("output_norm.weight", [d]);
    if (arch === "gpt2") t.set("output_norm.bias", [d]);
    if (arch === "llama") t.set("output.weight", [d, v]); // qwen2 and gpt2 tie theirs
    return t;
}

function checkModel(file, parsed) {
    checkLayout(file, parsed, 3, 32);
    const type = file.replace(/\.gguf$/, "").split("_").slice(2).join("_").toUpperCase();
    const arch = typed(parsed, file, "general.architecture", V.STRING);
    expect(["llama", "qwen2", "gpt2"].includes(arch) && file.startsWith(arch), file,
        `general.architecture ${arch}`);
    typed(parsed, file, "general.name", V.STRING);
    expect(typed(parsed, file, "general.file_type", V.UINT32) === FILE_TYPE[type], file,
        `general.file_type is not ${FILE_TYPE[type]} (${type})`);
    expect(typed(parsed, file, "general.quantization_version", V.UINT32) === 2, file,
        "general.quantization_version");
    const u32 = (k) => typed(parsed, file, `${arch}.${k}`, V.UINT32);
    const f32 = (k) => typed(parsed, file, `${arch}.${k}`, V.FLOAT32);
    const m = {
        embd: u32("embedding_length"), layers: u32("block_count"), ff: u32("feed_forward_length"),
        heads: u32("attention.head_count"), ctx: u32("context_length"),
    };
    if (arch === "gpt2") {
        f32("attention.layer_norm_epsilon");
    } else {
        m.kvHeads = u32("attention.head_count_kv");
        m.headDim = u32("rope.dimension_count");
        expect(m.headDim * m.heads === m.embd, file, "rope.dimension_count x heads != width");
        f32("rope.freq_base");
        f32("attention.layer_norm_rms_epsilon");
    }
    if (arch === "llama") {
        expect(typed(parsed, file, "llama.rope.scaling.type", V.STRING) === "linear", file,
            "llama.rope.scaling.type");
        expect(f32("rope.scaling.factor") === 2, file, "llama.rope.scaling.factor");
    }
    const tokens = typed(parsed, file, "tokenizer.ggml.tokens", V.ARRAY, V.STRING) ?? [];
    const types = typed(parsed, file, "tokenizer.ggml.token_type", V.ARRAY, V.INT32) ?? [];
    const merges = typed(parsed, file, "tokenizer.ggml.merges", V.ARRAY, V.STRING) ?? [];
    m.vocab = tokens.length;
    if (arch === "llama") expect(u32("vocab_size") === m.vocab, file, "llama.vocab_size");
    expect(typed(parsed, file, "tokenizer.ggml.model", V.STRING) === "gpt2", file,
        "tokenizer model");
    expect(typed(parsed, file, "tokenizer.ggml.pre", V.STRING) === "gpt-2", file, "tokenizer pre");
    expect(types.length === tokens.length, file, "token_type's length");
    expect(merges.length > 0 && merges.every((s) => s.split(" ").length === 2), file, "merges");
    const eot = tokens.indexOf("<|endoftext|>");
    expect(types.every((t, i) => t === (i === eot ? 3 : 1)), file, "token types (1, 3 for EOT)");
    for (const id of ["bos_token_id", "eos_token_id"])
        expect(typed(parsed, file, `tokenizer.ggml.${id}`, V.UINT32) === eot, file, id);
    expect(typed(parsed, file, "tokenizer.ggml.add_bos_token", V.BOOL) === false, file,
        "add_bos_token");

    const want = expectedTensors(arch, m);
    const have = new Map(parsed.tensorInfos.map((t) => [t.name, t]));
    for (const name of want.keys()) expect(have.has(name), file, `no tensor ${name}`);
    for (const [name, t] of have) {
        if (!expect(want.has(name), file, `an unexpected tensor ${name}`)) continue;
        const shape = t.shape.map(Number);
        expect(JSON.stringify(shape) === JSON.stringify(want.get(name)), file,
            `${name} has ne ${JSON.stringify(shape)}, not ${JSON.stringify(want.get(name))}`);
        const wantType = shape.length === 1 ? "F32" : type;
        expect(Q[t.dtype] === wantType, file, `${name} is ${Q[t.dtype]}, not ${wantType}`);
    }
    return `${arch}, ${have.size} tensors, ${tokens.length} tokens, ${merges.length} merges`;
}

function checkQuants(file, parsed) {
    const v2 = file === "quants_v2.gguf";
    checkLayout(file, parsed, v2 ? 2 : 3, v2 ? 64 : 32);
    const want = v2 ? { F32: [7, 3], Q8_0: [64, 3], Q4_K: [256, 2] }
                    : Object.fromEntries(QUANT_TYPES.map((t) => [t, [512, 3]]));
    if (v2) expect(typed(parsed, file, "general.alignment", V.UINT32) === 64, file, "alignment");
    expect(parsed.tensorInfos.length === Object.keys(want).length, file, "tensor count");
    for (const t of parsed.tensorInfos) {
        const type = t.name.replace(/^t\./, "");
        expect(Q[t.dtype] === type, file, `${t.name} is ${Q[t.dtype]}`);
        expect(JSON.stringify(t.shape.map(Number)) === JSON.stringify(want[type]), file,
            `${t.name} has ne ${t.shape}`);
    }
    return `${parsed.tensorInfos.length} tensors`;
}

const files = readdirSync(folder).filter((f) => f.endsWith(".gguf")).sort();
if (files.length === 0) {
    console.error(`no .gguf files in ${folder}`);
    process.exit(1);
}
for (const file of files) {
    let parsed;
    try {
        parsed = await gguf(join(folder, file), { allowLocalFile: true, typedMetadata: true });
    } catch (e) {
        failures.push(`${file}: does not parse: ${e.message}`);
        continue;
    }
    const before = failures.length;
    const summary = file.startsWith("quants") ? checkQuants(file, parsed)
                                              : checkModel(file, parsed);
    const verdict = failures.length === before ? "ok  " : "FAIL";
    console.log(`${verdict} ${file}: GGUF v${parsed.metadata.version}, ${summary}`);
}
if (failures.length) {
    console.error(`\n${failures.length} problem(s):\n  ` + failures.join("\n  "));
    process.exit(1);
}
console.log(`\nall ${files.length} files parse with @huggingface/gguf and hold what ` +
    "make_gguf_tiny.py meant");
