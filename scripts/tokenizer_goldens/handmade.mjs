// handmade.mjs: small tokenizer.json files, each exercising components real models rarely use.
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS } from './corpus.mjs';

const BYTES = Array.from({ length: 256 }, (_, b) =>
    `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);

/// A tiny BPE trained greedily on `words` (most frequent adjacent pair first, ties by text).
function trainBpe(words, { prefix = '', suffix = '', merges = 250, symbols = [] }) {
    const spell = (w) => [...w].map((c, i, a) =>
        (i > 0 ? prefix : '') + c + (i === a.length - 1 ? suffix : ''));
    let seqs = words.map(spell);
    const vocab = new Set(symbols);
    seqs.forEach((s) => s.forEach((t) => vocab.add(t)));
    const list = [];
    for (let k = 0; k < merges; ++k) {
        const counts = new Map();
        for (const s of seqs)
            for (let i = 0; i + 1 < s.length; ++i) {
                const key = s[i] + '\u0000' + s[i + 1];
                counts.set(key, (counts.get(key) || 0) + 1);
            }
        let best = null;
        for (const [key, n] of counts)
            if (!best || n > best[1] || (n === best[1] && key < best[0])) best = [key, n];
        if (!best || best[1] < 2) break;
        const [a, b] = best[0].split('\u0000');
        const merged = a + b.slice(prefix.length);
        list.push([a, b]);
        vocab.add(merged);
        seqs = seqs.map((s) => {
            const out = [];
            for (let i = 0; i < s.length; ++i)
                if (i + 1 < s.length && s[i] === a && s[i + 1] === b) { out.push(merged); ++i; }
                else out.push(s[i]);
            return out;
        });
    }
    return { vocab: [...vocab], merges: list };
}

function words() {
    const all = CORPUS.flatMap((t) => t.split(/\s+/)).filter((w) => w && w.length < 40);
    return [...all, ...all.map((w) => '\u2581' + w), ...all.map((w) => '\u2581' + w.toLowerCase())];
}

/// BPE over the corpus's characters, "▁", " " and (with byte fallback) the 256 byte tokens.
function bpeModel({ byteFallback = true, prefix = '', suffix = '', unk = '<unk>', fuseUnk = true,
                    ignoreMerges = false, extraWords = [], asciiOnly = false } = {}) {
    const source = asciiOnly ? words().map((w) => w.replace(/[^a-z]/gi, '')).filter(Boolean) : words();
    const { vocab, merges } = trainBpe(source, { prefix, suffix, symbols: asciiOnly ? [] : ['\u2581', ' '] });
    const tokens = ['<unk>', '<s>', '</s>', ...(byteFallback ? BYTES : []), ...vocab.sort(), ...extraWords];
    const ids = {};
    for (const t of tokens) if (!(t in ids)) ids[t] = Object.keys(ids).length;
    return { type: 'BPE', dropout: null, unk_token: unk, continuing_subword_prefix: prefix || null,
             end_of_word_suffix: suffix || null, fuse_unk: fuseUnk, byte_fallback: byteFallback,
             ignore_merges: ignoreMerges, vocab: ids, merges };
}

/// WordPiece over the corpus's lower-cased words: short words whole, longer ones in threes.
function wordPieceModel() {
    const vocab = { '[PAD]': 0, '[UNK]': 1, '[CLS]': 2, '[SEP]': 3, '[MASK]': 4 };
    const add = (t) => { if (!(t in vocab)) vocab[t] = Object.keys(vocab).length; };
    const pieces = CORPUS.join(' ').toLowerCase().split(/[\s\p{P}]+/u).filter(Boolean);
    for (const w of pieces.sort()) {
        const chars = [...w];
        if (chars.length <= 4) add(w);
        for (let i = 0; i < chars.length; i += 3)
            add((i > 0 ? '##' : '') + chars.slice(i, i + 3).join(''));
    }
    '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'.split('').forEach(add);
    return { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##',
             max_input_chars_per_word: 12, vocab };
}

const special = (content, id, options = {}) => ({ id, content, single_word: false, lstrip: false,
    rstrip: false, normalized: false, special: true, ...options });
const split = (pattern, behavior, invert = false) => ({ type: 'Split', pattern, behavior, invert });
const seq = (...pretokenizers) => ({ type: 'Sequence', pretokenizers });
const normSeq = (...normalizers) => ({ type: 'Sequence', normalizers });
const metaspace = (prepend_scheme, split = true) => ({ type: 'Metaspace', replacement: '\u2581', prepend_scheme, split });
const sentencePieceDecoder = { type: 'Sequence', decoders: [
    { type: 'Replace', pattern: { String: '\u2581' }, content: ' ' }, { type: 'ByteFallback' },
    { type: 'Fuse' }, { type: 'Strip', content: ' ', start: 1, stop: 0 }] };
const template = (single, pair, specials) => ({ type: 'TemplateProcessing', single, pair,
    special_tokens: Object.fromEntries(specials.map(([t, id]) => [t, { id: t, ids: [id], tokens: [t] }])) });
const S = (id, type_id = 0) => ({ SpecialToken: { id, type_id } });
const A = (type_id = 0) => ({ Sequence: { id: 'A', type_id } });
const B = (type_id = 1) => ({ Sequence: { id: 'B', type_id } });

/// GPT-2's two files (vocab.json, merges.txt) as the tokenizer.json Hugging Face ships.
function gpt2(root, folder, extra = {}) {
    const dir = path.join(root, 'tests', 'data', 'gpt2', folder);
    const vocab = JSON.parse(fs.readFileSync(path.join(dir, 'vocab.json'), 'utf8'));
    const merges = fs.readFileSync(path.join(dir, 'merges.txt'), 'utf8').split('\n')
        .filter((l) => l && !l.startsWith('#version'));
    const added = '<|endoftext|>' in vocab ? [special('<|endoftext|>', vocab['<|endoftext|>'], { normalized: true })] : [];
    return { added_tokens: added, normalizer: null,
             pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
             post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
             decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
             model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '',
                      end_of_word_suffix: '', fuse_unk: false, byte_fallback: false, vocab, merges },
             ...extra };
}

/// `tokens` with the ids added_vocabulary.rs gives: the vocabulary's, else the next after it.
function numbered(vocab, tokens) {
    let next = Object.keys(vocab).length;
    return tokens.map((t) => ({ ...t, id: t.content in vocab ? vocab[t.content] : next++ }));
}

/// name -> tokenizer.json contents (without version/truncation/padding).
export function handmade(root) {
    const bpe = bpeModel();
    const basics = [special('<unk>', 0), special('<s>', 1), special('</s>', 2)];
    const onBpe = (parts) => ({ added_tokens: basics, normalizer: null, pre_tokenizer: null,
                                post_processor: null, decoder: sentencePieceDecoder, model: bpe, ...parts });
    const tiny = gpt2(root, 'tiny');
    const tinySize = Object.keys(tiny.model.vocab).length;
    return {
        metaspace_always: onBpe({ pre_tokenizer: metaspace('always'), decoder: metaspace('always') }),
        metaspace_first: onBpe({ pre_tokenizer: metaspace('first', false), decoder: metaspace('first') }),
        metaspace_never: onBpe({ pre_tokenizer: metaspace('never'), decoder: metaspace('never') }),
        split_removed: onBpe({ pre_tokenizer: split({ String: '-' }, 'Removed') }),
        split_isolated: onBpe({ pre_tokenizer: split({ String: '-' }, 'Isolated') }),
        split_merged_previous: onBpe({ pre_tokenizer: split({ String: '-' }, 'MergedWithPrevious') }),
        split_merged_next: onBpe({ pre_tokenizer: split({ String: '-' }, 'MergedWithNext') }),
        split_contiguous: onBpe({ pre_tokenizer: split({ String: '-' }, 'Contiguous') }),
        split_regex_invert: onBpe({ pre_tokenizer: split({ Regex: '\\p{L}+|\\p{N}+' }, 'Removed', true) }),
        split_regex_merged: onBpe({ pre_tokenizer: split({ Regex: '\\s+' }, 'MergedWithPrevious') }),
        digits_individual: onBpe({ pre_tokenizer: seq({ type: 'WhitespaceSplit' }, { type: 'Digits', individual_digits: true }) }),
        digits_contiguous: onBpe({ pre_tokenizer: { type: 'Digits', individual_digits: false } }),
        whitespace: onBpe({ pre_tokenizer: { type: 'Whitespace' } }),
        whitespace_split: onBpe({ pre_tokenizer: { type: 'WhitespaceSplit' } }),
        punctuation: onBpe({ pre_tokenizer: seq({ type: 'WhitespaceSplit' }, { type: 'Punctuation', behavior: 'Contiguous' }) }),
        bert_pre_tokenizer: onBpe({ pre_tokenizer: { type: 'BertPreTokenizer' } }),
        normalizers_nfkc_lowercase: onBpe({
            normalizer: normSeq({ type: 'NFKC' }, { type: 'Lowercase' }, { type: 'Strip', strip_left: true, strip_right: true },
                                { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }),
            pre_tokenizer: { type: 'WhitespaceSplit' } }),
        normalizers_nfd_strip_accents: onBpe({
            normalizer: normSeq({ type: 'NFD' }, { type: 'StripAccents' }, { type: 'Prepend', prepend: '\u2581' },
                                { type: 'Replace', pattern: { String: ' ' }, content: '\u2581' }) }),
        normalizers_nfc_nfkd: onBpe({ normalizer: normSeq({ type: 'NFC' }, { type: 'NFKD' }), pre_tokenizer: metaspace('always') }),
        normalizer_strip_left: onBpe({ normalizer: { type: 'Strip', strip_left: true, strip_right: false } }),
        bert_normalizer_cased: onBpe({
            normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: false, lowercase: false },
            pre_tokenizer: { type: 'BertPreTokenizer' } }),
        bpe_prefix_suffix: onBpe({ pre_tokenizer: { type: 'WhitespaceSplit' }, decoder: null,
            model: bpeModel({ byteFallback: false, prefix: '##', suffix: '</w>', fuseUnk: false }) }),
        bpe_unk_fused: onBpe({ pre_tokenizer: { type: 'WhitespaceSplit' }, decoder: null,
            model: bpeModel({ byteFallback: false, asciiOnly: true, fuseUnk: true }) }),
        bpe_ignore_merges: onBpe({ pre_tokenizer: metaspace('always'),
            model: bpeModel({ ignoreMerges: true, extraWords: ['\u2581quick', '\u2581lazy', '\u2581countdown'] }) }),
        wordpiece: { added_tokens: [special('[PAD]', 0), special('[UNK]', 1), special('[CLS]', 2), special('[SEP]', 3), special('[MASK]', 4)],
            normalizer: { type: 'Lowercase' }, pre_tokenizer: { type: 'BertPreTokenizer' },
            post_processor: { type: 'BertProcessing', sep: ['[SEP]', 3], cls: ['[CLS]', 2] },
            decoder: { type: 'WordPiece', prefix: '##', cleanup: true }, model: wordPieceModel() },
        template_pair: onBpe({ pre_tokenizer: metaspace('first'),
            post_processor: template([S('<s>'), A(), S('</s>')], [S('<s>'), A(), S('</s>'), B(1), S('</s>', 1)], [['<s>', 1], ['</s>', 2]]) }),
        added_token_options: onBpe({ normalizer: { type: 'Lowercase' }, pre_tokenizer: metaspace('always'),
            added_tokens: [...basics, ...numbered(bpe.vocab, [special('[MASK]', 0, { lstrip: true }),
                special('<R>', 0, { rstrip: true }), special('sw', 0, { special: false, single_word: true }),
                special('Hello', 0, { special: false, normalized: true })])] }),
        gpt2_tiny: tiny,
        gpt2_prefix_space: { ...tiny, pre_tokenizer: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true } },
        roberta: { ...tiny, added_tokens: [...tiny.added_tokens, special('<s>', tinySize), special('</s>', tinySize + 1)],
            post_processor: { type: 'RobertaProcessing', sep: ['</s>', tinySize + 1], cls: ['<s>', tinySize], trim_offsets: true, add_prefix_space: false } },
        bytelevel_template_sequence: { ...tiny, added_tokens: [...tiny.added_tokens, special('<|bos|>', tinySize)],
            post_processor: { type: 'Sequence', processors: [{ type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
                template([S('<|bos|>')].concat([A()]), [S('<|bos|>'), A(), S('<|bos|>', 1), B(1)], [['<|bos|>', tinySize]])] } },
    };
}
