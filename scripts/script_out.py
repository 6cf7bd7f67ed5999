"""script_out.py: the --help and --out of the scripts here that write files.

Parsed before numpy or torch is imported, so --help works without them. --out is required:
nothing is written anywhere unless asked, and into the repository only when --out names a folder
in it (each script's --help gives the folder its committed files come from).
"""
import argparse
import os


def parse_out(doc, committed, required=True, extra=None):
    """The command line of a script whose module docstring is `doc` and whose committed output
    lives in `committed` (relative to the repository's root). `extra(parser)` adds options;
    `required=False` lets one of them stand in for --out (checked by the script)."""
    parser = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"Nothing is written without --out. To regenerate the committed files, run from "
               f"the repository's root with --out {committed}")
    parser.add_argument("--out", metavar="DIR", required=required,
                        help=f"the folder to write into, created if needed (the committed files: "
                             f"{committed})")
    if extra:
        extra(parser)
    args = parser.parse_args()
    if args.out:
        args.out = os.path.abspath(args.out)
    return args
