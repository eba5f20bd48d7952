#!/usr/bin/env python3
"""The house's shape, measured (issue 48): functions over 60 and over 100
lines, files over 700 lines, call cycles between files and between folders,
and hash tables written outside util/hashtab.c. Reads src/**/*.c as this
project writes C (a function's braces at column 0, as the kernel's and
rdma-core's style has them).

  scripts/house.py [SRCDIR]         the report; exits 0
  scripts/house.py --check [SRCDIR] exits 1 when a limit of issue 48 is
                                    broken: a function over 100 lines, a
                                    file over 700, a call cycle between
                                    files or folders, a hand-written hash
                                    table (tests/house.sh holds the tree
                                    to them)
"""
import os
import re
import sys

FUNC_LONG, FUNC_TOO_LONG, FILE_LONG = 60, 100, 700
HEAD = re.compile(r"^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w\s\*]*?\b([A-Za-z_]\w*)\s*\(")
# A name used outside functions (a table's callbacks), not a member.
WORD = re.compile(r"(?<![\w.>])([A-Za-z_]\w*)\b")
# What a hand-written hash table looks like: a slot found by masking a hash
# with the table's capacity, or the next slot probed ((i + 1) & mask). A
# hash of a text alone (an identity, a checksum) is not a table.
HASHY = re.compile(r"\(\s*\w+\s*\+\s*1\s*\)\s*(?:&|%)\s*\(?\s*\w*(?:mask|cap|slots)\b|"
                   r"&\s*\(\s*\w*(?:cap|size|slots)\w*\s*-\s*1\s*\)")
CALL = re.compile(r"(?<![\w.>])([A-Za-z_]\w*)\s*\(")


def strip(text):
    """The code without comments and string or character literals."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', '""', text)


def functions(path):
    """(name, first line, line count, body text, static) of each function
    defined in path, and the text outside them (tables of callbacks)."""
    lines = strip(open(path, encoding="utf-8", errors="replace").read()).split("\n")
    out, i, outside = [], 0, []
    while i < len(lines):
        if lines[i] == "{" and i > 0:
            j = i - 1   # the head: back to the line that names the function
            while j > 0 and "(" not in lines[j] and lines[j].strip():
                j -= 1
            while j > 0 and lines[j - 1].strip() and not lines[j - 1].rstrip().endswith((";", "}")) \
                    and HEAD.match(lines[j - 1]) is None and lines[j][0] in " \t":
                j -= 1
            m = HEAD.match(lines[j])
            k = i + 1
            while k < len(lines) and lines[k] != "}":
                k += 1
            if m:
                static = lines[j].startswith("static") or (j > 0 and lines[j - 1].startswith("static"))
                out.append((m.group(1), j + 1, k - j + 1, "\n".join(lines[i:k]), static))
            i = k
        else:
            outside.append(lines[i])
        i += 1
    return out, "\n".join(outside)


def sources(src):
    for root, _, files in os.walk(os.path.join(src, "src")):
        for f in sorted(files):
            if f.endswith(".c"):
                yield os.path.join(root, f)


def sccs(graph):
    """Tarjan's strongly connected components of more than one node."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    check = "--check" in sys.argv[1:]
    src = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    defined, funcs, tables, sizes, hashy = {}, {}, {}, {}, []
    for path in sources(src):
        rel = os.path.relpath(path, os.path.join(src, "src"))
        text = open(path, encoding="utf-8", errors="replace").read()
        sizes[rel] = text.count("\n")
        funcs[rel], tables[rel] = functions(path)
        for name, _, _, _, static in funcs[rel]:
            if not static:   # a static function is called from its own file only
                defined.setdefault(name, rel)
        if rel != "util/hashtab.c" and HASHY.search(strip(text)):
            hashy.append(rel)
    calls = {f: set() for f in funcs}
    for f, fs in funcs.items():
        own = {name for name, *_ in fs}
        # calls in bodies; any function named in the file's tables
        names = set(WORD.findall(tables[f]))
        for _, _, _, body, _ in fs:
            names |= set(CALL.findall(body))
        for w in names - own:
            g = defined.get(w)
            if g and g != f:
                calls[f].add(g)
    folder = lambda f: os.path.dirname(f) or "."
    folders = {}
    for f, gs in calls.items():
        folders.setdefault(folder(f), set()).update(folder(g) for g in gs if folder(g) != folder(f))
    long_funcs = sorted(((n, f, line, size) for f, fs in funcs.items() for n, line, size, _, _ in fs
                         if size > FUNC_LONG), key=lambda t: -t[3])
    too_long = [t for t in long_funcs if t[3] > FUNC_TOO_LONG]
    long_files = sorted(((f, n) for f, n in sizes.items() if n > FILE_LONG), key=lambda t: -t[1])
    file_cycles, folder_cycles = sccs(calls), sccs(folders)
    total = sum(sizes.values())
    print(f"house: {len(sizes)} .c files, {total} lines, {sum(len(v) for v in funcs.values())} functions")
    print(f"functions over {FUNC_LONG} lines: {len(long_funcs)}; over {FUNC_TOO_LONG}: {len(too_long)}")
    for n, f, line, size in long_funcs:
        print(f"  {size:4d}  {n} (src/{f}:{line})")
    print(f"files over {FILE_LONG} lines: {len(long_files)}")
    for f, n in long_files:
        print(f"  {n:5d}  src/{f}")
    print(f"call cycles between folders: {len(folder_cycles)}")
    for c in folder_cycles:
        print("  " + " <-> ".join(c))
    print(f"call cycles between files: {len(file_cycles)}")
    for c in file_cycles:
        print("  " + " <-> ".join(c))
    print(f"hash tables outside util/hashtab.c: {len(hashy)}")
    for f in hashy:
        print(f"  src/{f}")
    broken = too_long or long_files or folder_cycles or file_cycles or hashy
    sys.exit(1 if check and broken else 0)


if __name__ == "__main__":
    main()
