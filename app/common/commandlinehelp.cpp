// CommandLine::helpText: the option list --help prints, shared by headlens-cli and the window.
#include "commandline.h"

namespace headlens {

std::string CommandLine::helpText(const std::string &program, bool windowOptions)
{
    std::string text =
        "Usage: " + program + (windowOptions ? " [file.headlens] [options]\n" : " [options]\n");
    text += R"(
Input (one of):
  --text TEXT               a sentence; repeat for a batch (one sequence each)
  --text-file FILE          one sequence per line
  --input X.npy             token vectors instead of text, (n, d) or (b, n, d)
Cross-attention:
  --kv-text TEXT            keys and values from another text (once, or once per sequence)
  --kv-input Y.npy          keys and values from vectors, (b, n_kv, d)
  --key-padding-mask M.npy  (b, n_kv), nonzero where a key is ignored (PyTorch convention)
Layer:
  --weights W.npz           nn.MultiheadAttention state_dict saved with numpy.savez
  --d-model N               model width (default 512; read from --weights if not given)
  --d-in N                  input width when it differs from d_model
  --heads N                 number of heads h (default 8)
  --kv-heads N              key/value heads h_kv, a divisor of h (default: as many as heads);
                            1 = multi-query, between = grouped-query (Llama, Mistral, Qwen)
  --d-k N, --d-v N          per-head widths, untied from d_model / h
  --seed N                  seed for embeddings, weights and dropout (default 0)
  --causal                  mask later tokens
  --scale sqrt|none|T       divide scores by sqrt(d_k) (default), by nothing, or by T
  --no-bias                 no projection biases
  --dropout P               dropout on the attention weights (training mode)
  --positional sinusoidal|random|none
  --attention-positions none|rope|rope-interleaved|alibi
                            positions inside attention: RoPE with Hugging Face's split-half
                            pairs or RoFormer's interleaved ones, or ALiBi's linear biases
  --rope-theta T            RoPE's base theta (default 10000; Llama 3: 500000)
  --rope-offset S           add S to every RoPE position (the scores stay the same)
  --window W                sliding window: a query sees only the W most recent keys
  --tokenizer words|chars
  --memory-budget MIB       refuse traces larger than this (default 2048)
Models (a Hugging Face checkpoint folder: GPT-2, Llama, Mistral, Qwen2, Qwen3, BERT, RoBERTa,
DistilBERT; or a toy model):
  --list-models             the models in the Hugging Face cache ($HF_HUB_CACHE, $HF_HOME/hub or
                            ~/.cache/huggingface/hub) with architecture, size and dtype
  --model DIR|TOY.npz       config.json, model.safetensors (or its shards) and the tokenizer; runs --text
                            through every layer, prints the top-5 next tokens; --export-dir also
                            writes all_weights.npy (n_layer, n_head, n, n) and token_ids.npy
  --layer L                 the layer whose every step is traced and exported (default 0)
  --token-ids 1,2,3         the model's token ids instead of --text
  --text-pair TEXT          an encoder's sentence B: [CLS] text [SEP] pair [SEP]
  --fill-mask               an encoder's top-5 fillers of each [MASK] (<mask>) in the text
Interventions on heads' outputs (z_h, before W_O); layers from 0 as --layer, heads from 1 as
--stats prints them:
  --ablate L.H[,L.H...]     remove these heads in every pass: the predictions, the trace and the
                            exports are the ablated model's (the built-in layer is layer 0)
  --ablate-mode zero|mean   z_h = 0 (default), or z_h = its mean over the text's positions
  --importance              with --model: the loss increase when each head alone is
                            zero-ablated, a layers x heads table (decoders: each next token's
                            loss; encoders: at the mask tokens; toy models: the task's);
                            --export-dir also writes importance.npy and importance.csv
  --patch-from TEXT         with --model, --answer and --wrong: patch each head's output from
                            the clean TEXT into the run of --text (same token length), the share
                            of logit(answer) - logit(wrong) at the last position it restores;
                            --export-dir also writes patching.npy and patching.csv
  --answer A, --wrong B     the patching metric's two tokens, one token each (" Mary", " John")
  --patch-direction D       restore (default: clean outputs into the corrupted run, the share of
                            the difference each head restores) or break (corrupted outputs into
                            the clean run, the share each head removes)
  --logit-lens              with --model: the stream after each layer read through the final
                            norm and the output head (encoders: at the mask tokens): each
                            layer's top token per position and the probability of the model's
                            final prediction; --export-dir writes logit_lens.npy (stages,
                            positions), logit_lens_top.npy (stages, positions, 5) and
                            logit_lens.csv (stage 0 the embeddings, stage l after layer l - 1)
  --dla TOKEN[,WRONG]       with --model (decoders): each head's direct share of logit(TOKEN)
                            (- logit(WRONG)) at the last token, through the final norm with its
                            scale frozen, with the embeddings', biases' and MLPs' shares that
                            sum to it, and the tokens each head promotes and suppresses;
                            --export-dir writes dla.npy (layers, heads), dla.csv,
                            dla_parts.csv and dla_tokens.csv
  --dla-position N          the token (from 1) --dla reads at (default: the last)
  --atlas                   with --model: every head typed by its scores: previous token,
                            duplicate token and induction on 4 runs of random tokens repeated;
                            first token, self, fixed offset, local, [CLS], [SEP] and
                            punctuation on the text; each score's chance beside it;
                            --export-dir writes atlas.npy (scores, layers, heads) and atlas.csv
  --circuits L.H            with --model: head H (from 1) of layer L's QK and OV circuits
                            (Elhage et al. 2021): their singular values, the copying score,
                            the token pairs its QK prefers and the tokens its OV raises, on
                            the text's tokens and the stories' (512 at most); --export-dir
                            writes circuits_qk.npy and circuits_ov.npy (T, T),
                            circuits_tokens.csv and circuits_singular_values.csv
  --rollout                 with --model: attention rollout (Abnar & Zuidema 2020, heads
                            averaged, 0.5 A + 0.5 I through the layers) and value-weighted
                            attention (Kobayashi et al. 2020, each weight times ||v_j W_O,h||,
                            rows summing to 1); prints for the last token what it draws from
                            after each layer and how much of its heads' attention on the first
                            token moves anything; --export-dir writes rollout.npy (layers, n,
                            n), value_norms.npy (layers, heads, n) and value_weighted.npy
                            (layers, heads, n, n)
  --patch-positions L.H     the head also patched one position at a time (default: the map's
                            strongest); --export-dir writes patching_positions.csv
  --compare-text TEXT       run TEXT (B) too, with the same settings and model: per head the
                            largest and mean |A - B| and the rows' Jensen-Shannon divergence;
                            --export-dir adds compare_weights.npy (B) and, for texts of the same
                            token length, compare_difference.npy (A - B)
  --compare-model PATH      with --model: the same text through the model at PATH (a folder or
                            a .gguf file of the same shape and tokenizer: a Q4_K copy against
                            its F16, a base model against its fine-tune): per layer and head the
                            largest and mean |A - B| and the Jensen-Shannon divergence, the heads
                            that differ most, and both models' next tokens
  --compare-change NAME     the same for the same text with one change: seed (the next seed),
                            kv-heads (one K/V head), rope (RoPE on/off), causal (the mask on/off)
                            or no-ablations (without --ablate); the first four are the built-in
                            layer's
  --corpus FILE             with --model: every head over FILE's lines (one text each, the first
                            128 tokens): its statistics' means, its induction score on repeated
                            random tokens, Jensen-Shannon distances between heads and their 2-D
                            map; progress on stderr; --export-dir writes corpus_heads.csv,
                            corpus_distances.npy (L*h, L*h) and corpus_map.npy (L*h, 2)
  --dataset FILE            with --model: an experiment over FILE's prompts, one per line, with
                            progress on stderr: for texts, each head's importance (--ablate-mode
                            mean: replaced by its mean output over the whole dataset) and with
                            --dla its attribution at the last token, with --atlas its atlas
                            scores on the prompt; for JSON lines {"clean",
                            "corrupted", "answer", "wrong"}, each pair's patching map. Prints
                            the mean over the prompts and their standard deviation per head;
                            --export-dir writes dataset_NAME.npy (prompts, layers, heads), its
                            mean and spread (.npy, .csv) and dataset_prompts.csv. The
                            window's Heads that matter tab has the same over a dataset
Output:
  --print-shapes            the step table: shapes before -> after, formula, PyTorch line
  --stats                   per-head statistics
  --compare                 the four implementations and their largest difference
  --json                    the trace summary as JSON on stdout
  --export-dir DIR          one .npy per trace tensor plus trace.json
  --handout OUT.pdf         print the pipeline handout (title page + a page per step) and exit;
                            with --model and --atlas, the head atlas on a last page
  --page a4|letter          the handout's paper (default a4)
  --landscape               the handout's pages on their side (default portrait)
)";
    if (windowOptions)
        text += R"(Window:
  --screenshot OUT.png      render the window to a PNG and exit
  --size WxH                window size for --screenshot (default 1400x900)
  --view heads|head:N|pipeline|cost|train
                            the heads grid, head N large beside it, the pipeline, the cost of
                            MHA, GQA and MQA, or the Train view (with --train TASK --steps N:
                            after N steps)
  --view train-lm           with --train-lm [--train-text FILE] --steps N: the Language
                            model view after N steps (with --step K: at step K of them)
  --view train-live         with --train TASK --steps N: the Train view during training, at
                            10 steps a second (its watch speed), after 20 steps
  --view model              with --model DIR|TOY.npz: every layer and head, the statistics
  --view lines              the Lines tab: each query's lines to the keys it attends to
  --view corpus             with --model and --corpus FILE: the Corpus tab after FILE's run
  --view lens               with --model: the Lens tab once its logit lens and attribution
                            are computed
  --view atlas              with --model: the Atlas tab once every head is scored
  --view flow               with --model: the Flow tab (rollout, value-weighted attention)
  --view circuits           with --model: the Circuits tab: head 1 of --layer L
  --view importance|patching
                            the Heads that matter tab after computing head importance, or
                            the patching map (a GPT-2 gets the indirect-object example)
  --view dataset            with --model and --dataset FILE [--dla TOKEN[,WRONG]] [--atlas]:
                            the Heads that matter tab's dataset page after FILE's run
  --step N                  with --view pipeline: show step N (1 = the first), reached one
                            step at a time from the first
  --view pipeline-back      with --step N: step N reached one step at a time back from the last
  --view pipeline-side      with --step N: the pipeline scrolled down to its side tabs
  --view longtext[:Q,K,S]   with --model and a text too long for its matrices: the Long text
                            tab (zoomed to S x S tokens from query Q and key K); waits as
                            long as the run takes
  --view longband[:Q,D,S]   the same with the pinned head as a band (each row a query, each
                            column a distance back), zoomed from query Q and distance D
  --theme light|dark        the window's theme (View > Dark); --screenshot is light without it
  --presentation            start in presentation mode (View > Presentation mode, F5)
  --score PATTERN           the Heads view's "Score heads against": previous-token,
                            induction, antecedent, subject or bracket
  --story                   the Heads view's Story button: a generated story that fits the
                            model, with the relations the scores need
)";
    else
        text +=
            R"(  --figures png,pdf,svg     with --export-dir: figures ready for a paper (axis titles, square
                            cells, the colour bar), by default the heads grid and each head
  --figure LIST             what to draw, comma-separated: heads (the grid), head:N (one head,
                            N from 1), step:N or step:NAME (a pipeline step as on the handout,
                            e.g. step:6 or step:softmax), model (every layer x head of --model),
                            atlas, lens, rollout, dla, circuits (with --model and --atlas,
                            --logit-lens, --rollout, --dla, --circuits: each analysis's map)
  --figure-size WxH         the figures' size on paper in cm, mm or in, e.g. 8.5x6cm or
                            3.3x2.4in (default: 16x10cm for the grid, 10x9cm for a head)
  --dpi N                   PNG resolution, 30 to 2400 dots per inch (default 300); the PNG
                            is (size in inches x N) pixels and says its DPI
Cost (no trace is computed):
  --cost                    parameters, FLOPs and KV cache of these settings beside MHA and MQA
  --cost-layers L           layers of the model (default 1)
  --cost-tokens N           context length (default: the tokens of the first --text)
  --cost-dtype f32|bf16|f16|int8
                            bytes per cached value (default f32)
Training playground (a tiny attention-only transformer on a toy task):
  --train TASK              previous, reverse, sort or induction; prints loss and accuracy
  --layers L, --heads H     1-2 layers, 1-8 heads (defaults depend on the task)
  --d-model N               16-128;  --seq-len N  up to 32;  --vocab N  up to 64
  --steps N                 Adam steps (default 2000);  --lr R;  --batch-size B;  --seed S
  --layer-norm              pre-LayerNorm before each attention block and the unembedding
  --report-every N          steps between printed lines (default 100)
  --until-accuracy A        stop once the held-out accuracy reaches A (e.g. 0.99)
  --save FILE.npz           save the trained model (open it later in the window)
Language model (a GPT-2-style model trained on a text, its heads scored as they form):
  --train-lm                train one; prints held-out loss, the loss on runs of text seen
                            twice against once (in-context copying), samples and the heads'
                            previous-token and induction scores
  --preset micro|tiny|small micro: 2 layers, 4 heads, d_model 64, context 32;
                            tiny: 2 layers, 4 heads, d_model 128, context 64 (default);
                            small: 4 layers, 4 heads, d_model 192, context 128
  --layers L, --heads H, --d-model N, --seq-len N
                            a custom size from the preset's (up to 12 layers, 16 heads,
                            d_model 768, context 1024; refused when it does not fit memory)
  --train-text FILE         the text to learn (UTF-8); without it, 2 MB of generated stories,
                            and the heads are scored against their pronouns' antecedents,
                            verbs' subjects and brackets
  --print-stories BYTES     print the generated stories, whole ones up to at least BYTES
                            (the same text as --train-lm trains on with the same --seed)
  --bpe N                   tokens: a byte-level BPE of N (257-4096) learned from the text,
                            as Hugging Face's BpeTrainer learns it; without it, one per byte
  --attention-only          no MLP in the blocks (the models of Olsson et al. 2022)
  --attention-positions rope, --kv-heads N, --dropout P
                            rotary positions instead of learned ones, N K/V heads shared by
                            the query heads (GQA), dropout P while training
  --steps N                 AdamW steps (default 2000), warm-up then cosine decay
  --sample-tokens N         length of the sample printed at each report (default 120)
  --save DIR                save as a Hugging Face GPT-2 folder (open it with --model DIR;
                            with RoPE or GQA HeadLens's own model_type headlens_gpt)
)";
    text += "  --help, --version\n";
    return text;
}

} // namespace headlens
