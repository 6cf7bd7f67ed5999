#!/usr/bin/env node
// make_bpe_goldens.mjs: Hugging Face's BpeTrainer (Rust, through its Node binding) on a text,
// written as the merges, vocabulary and ids that HeadLens's BpeTrainer must reproduce.
//
//   node scripts/make_bpe_goldens.mjs --out DIR        goldens of tests/data/bpe/
//                                                      training_text.txt at vocabularies 300
//                                                      and 1000 (the committed ones:
//                                                      --out tests/data/bpe)
//   node scripts/make_bpe_goldens.mjs --text FILE --vocab N [--vocab M ...] --out DIR
//                                                      the same for another text (the story
//                                                      corpus): DIR/<name>.vocab<N>.json
//   node scripts/make_bpe_goldens.mjs --help           this text
//
// Needs Node.js 18+ and @anush008/tokenizers 0.6.0 (huggingface/tokenizers 0.22) in the npm
// cache that `node scripts/make_tokenizer_goldens.mjs --install` fills ($HEADLENS_NPM_CACHE,
// else ${XDG_CACHE_HOME:-$HOME/.cache}/headlens/npm). The tests read only the committed goldens.
//
// Why some goldens are derived: neither Node binding (`tokenizers` 0.23 nor
// @anush008/tokenizers) lets a script configure the trainer; Tokenizer.train(files) always runs
// BpeTrainer::default() (vocab_size 30000, min_frequency 0, no special tokens, no initial
// alphabet). So every text gets two kinds of golden:
//   <name>.hf_defaults.json  HF's own run at those defaults, as it is (nothing derived);
//   <name>.vocab<N>.json     GPT-2's settings (special token "<|endoftext|>", initial alphabet
//                            ByteLevel.alphabet(), vocab_size N), derived from that run by what
//                            trainer.rs does with them: ids 0.. go to the special tokens, then
//                            the alphabet by code point, then merge results in order; the merges
//                            are the default run's, cut where the vocabulary reaches N. Merges
//                            do not depend on those settings: ties compare pairs of ids, and
//                            the new ids keep the old ids' order. The ids of the test strings
//                            are then HF's own, from the derived tokenizer.json.
// The derivation is refused when the run made a token twice (then trainer.rs's queue holds
// stale duplicates and a cut list could differ).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `Usage: node scripts/make_bpe_goldens.mjs [--text FILE --vocab N [--vocab M ...]] --out DIR
  --out DIR    where the goldens go: DIR/<name>.hf_defaults.json and DIR/<name>.vocab<N>.json
               (the committed ones, from the repository's root: --out tests/data/bpe)
  --text FILE  the text to train on, read as Tokenizer.train reads a file (line by line);
               without it tests/data/bpe/training_text.txt at vocabularies 300 and 1000
  --vocab N    a vocabulary size for GPT-2's settings (256 byte symbols + "<|endoftext|>" +
               merges); repeat for several
  --help       this text
Nothing is written without --out.
`;
const PACKAGE = '@anush008/tokenizers';
const PACKAGE_VERSION = '0.6.0'; // huggingface/tokenizers 0.22
const SPECIAL_TOKENS = ['<|endoftext|>'];
const HF_DEFAULT_VOCAB_SIZE = 30000;
/// Encoded by HF and by HeadLens: seen and unseen words, digits, spaces, line breaks, non-ASCII,
/// and the special token inside text.
const CASES = [
    'The little fox ran across the meadow.',
    'Lily and Max played with the red ball until the sun went down.',
    'A naïve traveller in the café paid €14.50 — at 7:45 on 12 March 2024.',
    "We're sure it's fine; don't worry, they'll see.",
    'Unseen words: zebra, quixotic, xylophone, bureaucracy!',
    'Numbers 1234567890 and 3.14159, then 65536.',
    'Spaces   and\ttabs\n\nand line breaks\n',
    'Emoji 🚀 and 東京 and Ærø, byte by byte.',
    'The end.<|endoftext|>Once upon a time',
    'aaabdaaabac mississippi abababab',
];

function fail(message) {
    console.error(`make_bpe_goldens: ${message}`);
    process.exit(1);
}

function cacheDir() {
    if (process.env.HEADLENS_NPM_CACHE) return process.env.HEADLENS_NPM_CACHE;
    const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
    return path.join(base, 'headlens', 'npm');
}

function loadTokenizers() {
    const cache = cacheDir();
    const manifest = path.join(cache, 'node_modules', PACKAGE, 'package.json');
    let version = null;
    try {
        version = JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
    } catch {
        fail(`${PACKAGE} is not in the npm cache ${cache}. Install it with ` +
             '`node scripts/make_tokenizer_goldens.mjs --install` (needs npm and the npm registry).');
    }
    if (version !== PACKAGE_VERSION)
        fail(`${PACKAGE} ${version} is in ${cache}, but the goldens are made with ${PACKAGE_VERSION}; ` +
             'run `node scripts/make_tokenizer_goldens.mjs --install`.');
    return createRequire(path.join(cache, 'node_modules', 'x.js'))(PACKAGE);
}

function parseArguments(argv) {
    const options = { text: null, vocab: [], out: null };
    for (let i = 0; i < argv.length; ++i) {
        const flag = argv[i];
        if (flag === '--help' || flag === '-h') {
            process.stdout.write(USAGE);
            process.exit(0);
        }
        const value = argv[++i];
        if (!['--text', '--vocab', '--out'].includes(flag)) fail(`unknown option ${flag}\n${USAGE}`);
        if (value === undefined) fail(`${flag} needs a value\n${USAGE}`);
        if (flag === '--vocab') {
            const size = Number(value);
            if (!Number.isInteger(size) || size < 257 || size > HF_DEFAULT_VOCAB_SIZE)
                fail(`--vocab ${value}: give a whole number from 257 (256 bytes + the special ` +
                     `token) to ${HF_DEFAULT_VOCAB_SIZE}`);
            options.vocab.push(size);
        } else {
            options[flag.slice(2)] = value;
        }
    }
    if (!options.out) {
        process.stderr.write(USAGE);
        fail('give --out DIR (the committed goldens: --out tests/data/bpe)');
    }
    if (!options.text && options.vocab.length === 0)
        return { ...options, text: path.join(ROOT, 'tests/data/bpe/training_text.txt'),
                 vocab: [300, 1000] };
    if (!options.text || options.vocab.length === 0)
        fail(`give --text and --vocab together\n${USAGE}`);
    return options;
}

/// The tokenizer.json HeadLens's BpeTokenizerJsonWriter writes, for these tokens and merges.
function gpt2StyleJson(tokens, merges, specialTokens) {
    const byteLevel = (trimOffsets) => ({ type: 'ByteLevel', add_prefix_space: false,
                                          trim_offsets: trimOffsets, use_regex: true });
    const vocab = {};
    tokens.forEach((token, id) => { vocab[token] = id; });
    return {
        version: '1.0', truncation: null, padding: null,
        added_tokens: specialTokens.map((content) => ({
            id: vocab[content], content, single_word: false, lstrip: false, rstrip: false,
            normalized: false, special: true })),
        normalizer: null,
        pre_tokenizer: byteLevel(true), post_processor: byteLevel(false), decoder: byteLevel(true),
        model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null,
                 end_of_word_suffix: null, fuse_unk: false, byte_fallback: false,
                 ignore_merges: false, vocab, merges },
    };
}

/// trainer.rs do_train with special tokens, ByteLevel's alphabet and vocab_size `size`,
/// replayed on the merges of the default run (see the header).
function deriveGpt2(tokenizers, run, size) {
    const alphabet = [...tokenizers.byteLevelAlphabet()].sort((a, b) => a.codePointAt(0) - b.codePointAt(0));
    const tokens = [...SPECIAL_TOKENS];
    for (const symbol of alphabet) if (!tokens.includes(symbol)) tokens.push(symbol);
    const known = new Set(tokens);
    for (const token of run.tokens)
        if ([...token].length === 1 && !known.has(token))
            fail(`the alphabet of the default run has ${JSON.stringify(token)}, not a ByteLevel symbol`);
    const merges = [];
    for (const [left, right] of run.merges) {
        if (tokens.length >= size) break;
        merges.push([left, right]);
        if (!known.has(left + right)) {
            known.add(left + right);
            tokens.push(left + right);
        }
    }
    if (tokens.length < size && run.tokens.length >= HF_DEFAULT_VOCAB_SIZE)
        fail(`the default run stopped at ${HF_DEFAULT_VOCAB_SIZE} tokens, too few to derive ${size}`);
    return { tokens, merges };
}

async function encodeCases(tokenizer) {
    const cases = [];
    for (const text of CASES) {
        const encoding = await tokenizer.encode(text, null, { addSpecialTokens: true });
        cases.push({ text, ids: encoding.getIds() });
    }
    return cases;
}

/// The derivation's own check: with every merge, the derived tokenizer splits each case whose
/// characters all occur in the text into the same tokens as HF's trained one.
async function checkDerivation(trained, run, text) {
    const all = deriveGpt2(tokenizers, run, SPECIAL_TOKENS.length + 256 + run.merges.length);
    const full = Tokenizer.fromString(JSON.stringify(gpt2StyleJson(all.tokens, all.merges, [])));
    const seen = new Set([...text]);
    for (const sample of CASES) {
        if (![...sample].every((c) => seen.has(c))) continue;
        const expected = (await trained.encode(sample, null)).getTokens();
        const got = (await full.encode(sample, null)).getTokens();
        if (JSON.stringify(expected) !== JSON.stringify(got))
            fail(`the derived tokenizer splits ${JSON.stringify(sample)} as ${got}, HF's as ${expected}`);
    }
}

function tokensById(vocab) {
    const tokens = [];
    for (const [token, id] of Object.entries(vocab)) tokens[id] = token;
    if (tokens.length !== Object.keys(vocab).length || tokens.includes(undefined))
        fail('the trained vocabulary has gaps in its ids');
    return tokens;
}

function writeGolden(file, golden) {
    const lines = JSON.stringify(golden, null, 0)
        .replace(/\],\[/g, '],\n[')
        .replace(/\},\{"text"/g, '},\n{"text"');
    fs.writeFileSync(file, lines + '\n');
    console.log(`make_bpe_goldens: wrote ${path.relative(process.cwd(), file)}`);
}

const major = Number(process.versions.node.split('.')[0]);
if (major < 18) fail(`Node.js ${process.versions.node} is too old; 18 or newer is needed.`);
const options = parseArguments(process.argv.slice(2));
if (!fs.existsSync(options.text)) fail(`cannot read --text ${options.text}`);
const tokenizers = loadTokenizers();
const { Tokenizer, BPE, byteLevelPreTokenizer } = tokenizers;

const trained = new Tokenizer(BPE.empty());
trained.setPreTokenizer(byteLevelPreTokenizer(false, true)); // GPT-2: no prefix space, its regex
trained.train([path.resolve(options.text)]);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'headlens-bpe-'));
trained.save(path.join(tmp, 'tokenizer.json'), false);
const model = JSON.parse(fs.readFileSync(path.join(tmp, 'tokenizer.json'), 'utf8')).model;
fs.rmSync(tmp, { recursive: true, force: true });
const run = { tokens: tokensById(model.vocab), merges: model.merges };
const results = new Set(run.merges.map(([l, r]) => l + r));
const alphabetSize = run.tokens.length - run.merges.length;
if (results.size !== run.merges.length || run.tokens.slice(0, alphabetSize).some((t) => results.has(t)))
    fail('HF made some token twice on this text, so the GPT-2 goldens cannot be derived from ' +
         'the default run (see the header); use another text');

await checkDerivation(trained, run, fs.readFileSync(options.text, 'utf8'));

fs.mkdirSync(options.out, { recursive: true });
const name = path.basename(options.text).replace(/\.[^.]*$/, '');
const relativeText = path.relative(path.join(ROOT, 'tests', 'data'), path.resolve(options.text));
const source = `scripts/make_bpe_goldens.mjs: huggingface/tokenizers 0.22 (${PACKAGE} ${PACKAGE_VERSION})`;
const text = relativeText.startsWith('..') ? path.resolve(options.text) : relativeText;
writeGolden(path.join(options.out, `${name}.hf_defaults.json`), {
    source, text, derived: false,
    settings: { vocab_size: HF_DEFAULT_VOCAB_SIZE, min_frequency: 0, special_tokens: [],
                initial_alphabet: 'seen' },
    vocab: run.tokens, merges: run.merges, cases: await encodeCases(trained),
});
for (const size of options.vocab) {
    const derived = deriveGpt2(tokenizers, run, size);
    const tokenizer = Tokenizer.fromString(
        JSON.stringify(gpt2StyleJson(derived.tokens, derived.merges, SPECIAL_TOKENS)));
    writeGolden(path.join(options.out, `${name}.vocab${size}.json`), {
        source, text, derived: true,
        settings: { vocab_size: size, min_frequency: 0, special_tokens: SPECIAL_TOKENS,
                    initial_alphabet: 'ByteLevel' },
        vocab: derived.tokens, merges: derived.merges, cases: await encodeCases(tokenizer),
    });
}
