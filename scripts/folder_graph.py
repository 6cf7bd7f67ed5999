#!/usr/bin/python3
"""folder_graph.py: which source folders include which, and the cycles among them.

Reads every .h and .cpp under core/ and ui/ (the repository's root is this script's parent),
resolves each #include "folder/file.h" to the folder that holds it (core/ first, as the build's
include path has it, then ui/), and prints, per folder, the folders it includes from with the
number of includes and one example; then every cycle: a set of folders that reach each other
(a strongly connected component of the graph), with one include that closes each edge of it.
ui/mainwindow.* count as the folder "ui/(top)".

  --dot       print the graph in Graphviz's dot format instead
  --check     exit with status 1 when there is a cycle (for CI)

Writes nothing. Needs only Python 3's standard library.
"""
import argparse
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_ROOTS = ["core", "ui"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def folder_of(root, relative):
    """"ui/pipeline" for ui/pipeline/x.cpp; "ui/(top)" for ui/mainwindow.cpp."""
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


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dot", action="store_true", help="Graphviz dot instead of text")
    parser.add_argument("--check", action="store_true", help="exit 1 when there is a cycle")
    args = parser.parse_args()

    folders, edges = read_graph()
    found = cycles(folders, edges)
    if args.dot:
        print("digraph folders {")
        for source in sorted(edges):
            for target, uses in sorted(edges[source].items()):
                print(f'  "{source}" -> "{target}" [label="{len(uses)}"];')
        print("}")
    else:
        for source in sorted(folders):
            targets = edges.get(source, {})
            print(f"{source}: {', '.join(sorted(targets)) or '(nothing)'}")
            for target, uses in sorted(targets.items()):
                print(f"    -> {target}: {len(uses)} (e.g. {uses[0][0]}: {uses[0][1]})")
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
    return 1 if args.check and found else 0


if __name__ == "__main__":
    sys.exit(main())
