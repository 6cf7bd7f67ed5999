#!/usr/bin/python3
"""folder_graph.py: which source folders include which, and the cycles among them.

Reads every .h and .cpp under core/ and ui/ (the repository's root is this script's parent),
resolves each #include "folder/file.h" to the folder that holds it (core/ first, as the build's
include path has it, then ui/), and prints, per folder, the folders it includes from with the
number of includes and one example; then every cycle: a set of folders that reach each other
(a strongly connected component of the graph), with one include that closes each edge of it;
then every include that breaks the layers below.

The layers (docs/architecture.md draws them): a folder may include from folders of a lower
layer only, never from its own layer (the feature libraries stay independent of each other)
nor from one above. ui/ may include any of core/; core/ never includes ui/. Each ui folder is
one CMake library (ui/CMakeLists.txt) linking the ones below it, and the build runs
`--check` (the folder_layers target), so an include across the layers fails the build.

  --dot       print the graph in Graphviz's dot format instead
  --check     print only the verdict; exit with status 1 when there is a cycle or an
              include breaks the layers

Writes nothing. Needs only Python 3's standard library.
"""
import argparse
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_ROOTS = ["core", "ui"]
# Bottom first. Each entry is one layer: the folders in it may not include each other.
LAYERS = {
    "core": [
        ["util", "linalg"],
        ["tensor"],
        ["io"],
        ["text"],
        ["stats"],
        ["attention"],
        ["stories"],
        ["train"],
        ["model"],
        ["corpus", "session"],
    ],
    "ui": [
        ["plot", "selection", "workspace"],  # drawing helpers and the document
        ["panels", "runner"],  # input widgets; the worker threads
        ["views"],  # heads grid, pinned head, lines, token strip, head tables
        ["steps"],  # the attention steps' drawings, shared by the pipeline and the handout
        ["print"],  # the handout's pages
        ["export"],  # figures and tensors to files
        # the feature libraries, each a tab of the window
        ["compare", "corpus", "cost", "interventions", "lens", "longtext", "models", "pipeline",
         "train"],
        ["window"],  # MainWindow, its menus, docks and the wiring between features
    ],
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def folder_of(root, relative):
    """"ui/pipeline" for ui/pipeline/x.cpp; "ui/(top)" for a file directly in ui/."""
    parts = relative.split("/")
    return f"{root}/{parts[0]}" if len(parts) > 1 else f"{root}/(top)"


def resolve(include):
    """The folder of the file an include names, or None (Qt, Eigen, a test's helper)."""
    for root in SOURCE_ROOTS:
        if os.path.isfile(os.path.join(ROOT, root, include)):
            return folder_of(root, include)
    return None


def read_graph():
    """{folder: {included folder: [(file, include), ...]}}, self-includes left out."""
    edges = defaultdict(lambda: defaultdict(list))
    folders = set()
    for root in SOURCE_ROOTS:
        base = os.path.join(ROOT, root)
        for directory, _, files in os.walk(base):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(directory, name)
                relative = os.path.relpath(path, base).replace(os.sep, "/")
                source = folder_of(root, relative)
                folders.add(source)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for include in INCLUDE.findall(text):
                    target = resolve(include)
                    if target and target != source:
                        edges[source][target].append((f"{root}/{relative}", include))
    return folders, edges


def cycles(folders, edges):
    """Tarjan's strongly connected components of more than one folder, each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(folders):
        if v not in index:
            visit(v)
    return sorted(found)


def layer_of(folder):
    """(0 for core, 1 for ui; the layer's index), or None for a folder the table lacks."""
    root, name = folder.split("/", 1)
    for index, layer in enumerate(LAYERS.get(root, [])):
        if name in layer:
            return (SOURCE_ROOTS.index(root), index)
    return None


def layer_breaks(folders, edges):
    """Lines naming each folder missing from LAYERS and each include across the layers."""
    found = []
    for folder in sorted(folders):
        if layer_of(folder) is None:
            found.append(f"{folder} is in no layer: add it to LAYERS in scripts/folder_graph.py")
    for source in sorted(edges):
        for target, uses in sorted(edges[source].items()):
            low, high = layer_of(target), layer_of(source)
            if low is None or high is None or low < high:
                continue
            where = "its own layer" if low == high else "a layer above"
            found.append(f"{source} includes {target}, {where}: {uses[0][0]} includes "
                         f"{uses[0][1]} (move the shared piece down a layer)")
    return found


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dot", action="store_true", help="Graphviz dot instead of text")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when there is a cycle or an include across the layers")
    args = parser.parse_args()

    folders, edges = read_graph()
    found = cycles(folders, edges)
    breaks = layer_breaks(folders, edges)
    if args.dot:
        print("digraph folders {")
        for source in sorted(edges):
            for target, uses in sorted(edges[source].items()):
                print(f'  "{source}" -> "{target}" [label="{len(uses)}"];')
        print("}")
    else:
        for source in sorted(folders) if not args.check else []:  # --check: the verdict only
            targets = edges.get(source, {})
            print(f"{source}: {', '.join(sorted(targets)) or '(nothing)'}")
            for target, uses in sorted(targets.items()):
                print(f"    -> {target}: {len(uses)} (e.g. {uses[0][0]}: {uses[0][1]})")
        if not args.check:
            print()
        if not found:
            print("No cycle among the folders.")
        for component in found:
            members = set(component)
            print(f"Cycle of {len(component)} folders: {', '.join(component)}")
            for source in component:
                for target, uses in sorted(edges[source].items()):
                    if target in members:
                        print(f"    {source} -> {target}: {uses[0][0]} includes {uses[0][1]}")
        print()
        print("No include across the layers." if not breaks else "Includes across the layers:")
        for line in breaks:
            print(f"    {line}")
    if args.check and (found or breaks):
        if args.dot:  # the report went to stdout as dot: say why on stderr
            print("folder_graph.py: a cycle or an include across the layers", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
