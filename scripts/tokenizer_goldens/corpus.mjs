// corpus.mjs: the texts every golden tokenizer encodes, and the pairs for two-text inputs.
const longWord = 'pneumonoultramicroscopicsilicovolcanoconiosis';

export const CORPUS = [
    // ASCII
    'Hello world', 'Hello, world! How are you?', ' leading space', 'trailing space ',
    'The quick brown fox jumps over the lazy dog.', 'HELLO World hello WORLD',
    // contractions
    "they're sure we'll see it; isn't it? I'm, you'd, we've", "DON'T SHOUT, IT'S LOUD",
    'It\u2019s curly: don\u2019t', "rock'n'roll o'clock",
    // numbers
    '1', '12', '123', '1234', '12345678901234567890', '3.14159 and 1,000,000', '2024-01-01T12:30',
    '0x1F 1e-9 -42 +7', '\u0661\u0662\u0663 Arabic-Indic digits',
    // runs of spaces, newlines and tabs
    'a  b   c    d', '   ', 'line1\nline2\n\nline4', '\n\n\n', 'tab\tseparated\tvalues',
    ' \t \n mixed \r\n crlf', 'trailing newline\n', '  two leading', 'end   ',
    // accents, composed and decomposed
    'caf\u00e9 na\u00efve r\u00e9sum\u00e9', 'cafe\u0301 decomposed', '\u00c5ngstr\u00f6m \u00c5NGSTR\u00d6M',
    '\u0130stanbul stra\u00dfe \u03a3\u038a\u03a3\u03a5\u03a6\u039f\u03a3', 'U\u0308ber A\u0308rger',
    // CJK and other scripts
    '\u6211\u7231\u5317\u4eac\u5929\u5b89\u95e8', '\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3067\u3059\u3002',
    '\ud55c\uad6d\uc5b4 \ud14d\uc2a4\ud2b8', '\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440!',
    '\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645', '\u0928\u092e\u0938\u094d\u0924\u0947',
    // emoji: single, skin tone, ZWJ family, flags
    '\ud83d\udc4d', '\ud83d\udc4d\ud83c\udffd thumbs', '\ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67\u200d\ud83d\udc66 family',
    '\ud83c\uddeb\ud83c\uddf7\ud83c\uddef\ud83c\uddf5 flags', '\ud83e\udd17 hugging face', '\ud83e\udd7a\ud83e\udee0',
    // code
    'def f(x):\n    return x**2  # square', 'if (a != b && c <= d) { x->y(); }',
    '<div class="a">&amp;</div>', 'SELECT * FROM t WHERE id=42;', 'path/to/file_name.cpp:12:3',
    // text that looks like special tokens
    '<s>', '</s>', '<unk>', '<s>Hello</s>', 'a<s>b', ' <s> spaced </s> ', '<|begin_of_text|>',
    'Hello <|end_of_text|> world', '<|endoftext|>', '[CLS] [SEP] [MASK]', '[cls] lower [mask]',
    '<bos>text<eos>', '<|im_start|>user\nhi<|im_end|>', '<think>why</think>', '<unused0>', '<0x41>',
    // empty, long words
    '', 'supercalifragilisticexpialidocious', longWord, longWord.repeat(3), 'x'.repeat(101),
    // odds and ends: normal forms, widths, controls, symbols
    '\uff46\uff55\uff4c\uff4c\uff57\uff49\uff44\uff54\uff48 \uff21\uff22\uff23', '\ufb01nance \ufb02ow',
    '\u2460\u2461\u2462 \u00bd \u216b', 'math: \u2211 x\u00b2 \u2264 \u221e', '\u00a0nbsp\u2003em\u3000ideo',
    'zero\u200bwidth\u200djoin', 'ctrl\u0001\u0007bell', 'dash\u2014and\u2026ellipsis', 'e.g. U.S.A.',
    'the-final--countdown', 'a-b--c', 'x,y.z!w', 'Hey man!!', '1 22 333 4444',
    // for the added tokens' options (lstrip, rstrip, single_word, normalized)
    'a [MASK] b', 'a[MASK]b', 'x <R>  y', 'sw swim sw. asw', 'Hello HELLO hello',
];

export const PAIRS = [
    ['What is the capital of France?', 'Paris is the capital.'],
    ['Hello', 'World'],
    ['', 'only the second'],
    ['only the first', ''],
    ['<s> twice', 'caf\u00e9 \ud83e\udd17'],
];

/// More texts for the encoders' folders (BERT's basic tokenizer, RoBERTa's <mask>).
export const ENCODER_CORPUS = [
    'The cat sat on the [MASK] .', 'Paris is the [MASK] of France.', '[MASK][MASK] twice',
    'unaffable unbelievably', 'CAF\u00c9 Na\u00efve \u00c5NGSTR\u00d6M', '\u00c6r\u00f8sk\u00f8bing fa\u00e7ade jalape\u00f1o',
    '\u4e2d\u6587\u548cEnglish\u6df7\u5408', '\u3053\u3093\u306b\u3061\u306f\u4e16\u754c', '\uac00\ub098\ub2e4 \u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35',
    '...!!!???', '"quoted" (parens) [brackets] {braces}', '\u00bfQu\u00e9? \u00a1S\u00ed!', 'co-operate e-mail re-enter',
    '3.14 1,000 10:30pm 1st 2nd', 'tab\there\u000bvtab\u000cformfeed', '\u0000null\ufffdreplacement', 'soft\u00adhyphen',
    'a'.repeat(100), 'b'.repeat(101), 'ab'.repeat(60) + ' short', 'The <mask>.', 'The<mask>.', 'The  <mask> .',
    '<mask>', ' <mask>', 'Hello <s> world </s>', 'x <pad> <unk> y', "isn't it", '\ud83d\ude00 emoji \ud83c\udf89',
];

export const ENCODER_PAIRS = [
    ['The cat sat on the [MASK] .', 'It was a mat.'],
    ['Is this <mask>?', ' Yes <mask>'],
    ['', ''],
    ['\u00c5ngstr\u00f6m', '\u00c5NGSTR\u00d6M \u4e2d\u6587'],
];
