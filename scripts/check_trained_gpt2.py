#!/usr/bin/python3
"""check_trained_gpt2.py: a model HeadLens trained and saved (headlens-cli --train-lm --save DIR)
run by a reference implementation, its logits compared with the ones HeadLens recorded.

The folder's headlens_training.json holds "check": token ids and the logits HeadLens's model
gave at their last position when it was saved. This script reads config.json and
model.safetensors and runs the ids through
  - transformers' GPT2LMHeadModel.from_pretrained(DIR), when the transformers package is
    installed (Debian 12 has no package of it), and
  - the float64 NumPy GPT-2 of make_gpt2_tiny.py (written from Radford et al. 2019 and
    modeling_gpt2.py) always,
and fails unless each agrees with HeadLens's logits to 1e-5 (largest absolute difference).

    /usr/bin/python3 scripts/check_trained_gpt2.py DIR
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

TOLERANCE = 1e-5


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", help="the folder headlens-cli --train-lm --save wrote")
    args = parser.parse_args()
    try:
        import numpy as np
    except ImportError:
        print("check_trained_gpt2.py needs numpy: run it with /usr/bin/python3 "
              "(Debian: apt-get install python3-numpy)")
        return 0
    import make_gpt2_tiny as gpt2
    from make_intervention_goldens import read_safetensors

    with open(os.path.join(args.folder, "headlens_training.json")) as f:
        check = json.load(f).get("check")
    if not check:
        print(f"{args.folder}/headlens_training.json has no \"check\": save it again with a "
              "current headlens-cli")
        return 1
    with open(os.path.join(args.folder, "config.json")) as f:
        cfg = json.load(f)
    if cfg.get("model_type") == "headlens_gpt":
        # RoPE or GQA: neither transformers' GPT-2 nor the NumPy one here runs it.
        print(f"{args.folder} holds HeadLens's own model type headlens_gpt (RoPE or fewer "
              "key/value heads), which no GPT-2 reference runs: open it in HeadLens "
              "(headlens-cli --model DIR), or train without --rope and --kv-heads to get a GPT-2 "
              "folder this script checks")
        return 1
    ids = check["ids"]
    expected = np.array(check["last_logits"], dtype=np.float64)

    weights = read_safetensors(os.path.join(args.folder, "model.safetensors"))
    _, logits = gpt2.reference_forward(weights, cfg, ids)
    results = [("NumPy float64 GPT-2 (make_gpt2_tiny.py)", np.asarray(logits)[-1])]
    try:
        import torch
        from transformers import GPT2LMHeadModel
        model = GPT2LMHeadModel.from_pretrained(args.folder).eval()
        with torch.no_grad():
            out = model(torch.tensor([ids])).logits[0, -1].double().numpy()
        results.append(("transformers GPT2LMHeadModel", out))
    except ImportError:
        print("transformers is not installed: only the NumPy reference runs")

    failed = False
    for name, logits in results:
        worst = float(np.max(np.abs(logits - expected)))
        ok = worst <= TOLERANCE
        failed |= not ok
        print(f"{name}: largest difference {worst:.3g} ({'ok' if ok else 'over'} {TOLERANCE:g})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
