#!/usr/bin/env python3
"""Count code lines (non-blank, not comment-only) in a RealWorld/Conduit app.

Reads either a bare git directory at a revision (no checkout needed) or a
plain directory tree.

  conduit_loc.py --git-dir /path/repo.git --rev HEAD \
      --include src/ --exclude '\\.spec\\.ts$' [--by-file] [--json]
  conduit_loc.py --dir /path/worktree --include src/

--include  path prefix (repeatable); a file is counted if it starts with any.
--exclude  regex searched in the path (repeatable); matching files are dropped.

A line counts as code when, after removing whitespace and the comment syntax
of its file type, something is left.  Comment syntax per extension is in
LANG below.  Strings are skipped (so a "/*" inside a quoted string does not
open a block comment) only in the pure-code languages; in markup files
(.html .svelte .vue .heex .eex .leex .erb) there is no string skipping,
because apostrophes in prose would break it.  Elixir @moduledoc/@doc
heredocs and Python-style docstrings are counted as code, as cloc does.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

C_LINE = ["//"]
C_BLOCK = [("/*", "*/")]
HTML_BLOCK = [("<!--", "-->")]

# ext -> (line-comment markers, block (start, end) pairs, skip_strings)
LANG = {
    ".js": (C_LINE, C_BLOCK, True),
    ".jsx": (C_LINE, C_BLOCK + [("{/*", "*/}")], True),
    ".ts": (C_LINE, C_BLOCK, True),
    ".tsx": (C_LINE, C_BLOCK + [("{/*", "*/}")], True),
    ".swift": (C_LINE, C_BLOCK, True),
    ".css": ([], C_BLOCK, False),
    ".scss": (C_LINE, C_BLOCK, False),
    ".html": ([], HTML_BLOCK, False),
    ".svelte": (C_LINE, HTML_BLOCK + C_BLOCK, False),
    ".vue": (C_LINE, HTML_BLOCK + C_BLOCK, False),
    ".elm": (["--"], [("{-", "-}")], False),
    ".ex": (["#"], [], True),
    ".exs": (["#"], [], True),
    ".heex": ([], [("<%!--", "--%>"), ("<%#", "%>")] + HTML_BLOCK, False),
    ".eex": ([], [("<%#", "%>")] + HTML_BLOCK, False),
    ".leex": ([], [("<%#", "%>")] + HTML_BLOCK, False),
    ".rb": (["#"], [("=begin", "=end")], True),
    ".erb": ([], [("<%#", "%>")] + HTML_BLOCK, False),
    ".cljs": ([";"], [], True),
    ".clj": ([";"], [], True),
}
# Multi-part extensions map onto their last part (foo.html.heex -> .heex,
# foo.html.erb -> .erb), which is what os.path.splitext gives.


def ext_of(path):
    return os.path.splitext(path)[1].lower()


# Multi-line string delimiters: lines inside them are code, never comments.
MULTILINE_STR = {
    ".js": ['`'], ".jsx": ['`'], ".ts": ['`'], ".tsx": ['`'],
    ".swift": ['"""'], ".ex": ['"""', "'''"], ".exs": ['"""', "'''"],
}


def classify(line, state, lang, mstr=()):
    """Return (is_code, new_state).

    state is None or (end_marker, inside_code_string)."""
    line_markers, blocks, skip_strings = lang
    s = line.strip()
    if not s:
        return False, state
    i, n, code = 0, len(s), False
    while i < n:
        if state is not None:
            end, is_str = state
            if is_str:
                code = True
            j = s.find(end, i)
            if j < 0:
                return code, state
            i = j + len(end)
            state = None
            continue
        if s[i].isspace():
            i += 1
            continue
        if any(s.startswith(m, i) for m in line_markers):
            return code, None
        opened = False
        for start, end in blocks:
            if s.startswith(start, i):
                state, i, opened = (end, False), i + len(start), True
                break
        if opened:
            continue
        code = True
        ml = next((q for q in mstr if s.startswith(q, i)), None)
        if ml and len(ml) == 3:          # triple-quoted heredoc
            state, i = (ml, True), i + 3
            continue
        if skip_strings and s[i] in "\"'`":
            q = s[i]
            i += 1
            while i < n and s[i] != q:
                i += 2 if s[i] == "\\" else 1
            if i >= n and q in mstr:     # unclosed template literal
                return True, (q, True)
            i += 1
            continue
        i += 1
    return code, state


def count_text(text, lang, mstr=()):
    state, code = None, 0
    for line in text.splitlines():
        is_code, state = classify(line, state, lang, mstr)
        code += is_code
    return code


def list_git(git_dir, rev):
    out = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r",
                          "--name-only", rev], check=True,
                         capture_output=True, text=True).stdout
    return out.splitlines()


def read_git(git_dir, rev, path):
    return subprocess.run(["git", "--git-dir", git_dir, "show",
                           f"{rev}:{path}"], check=True,
                          capture_output=True).stdout.decode("utf-8", "replace")


def list_dir(root):
    for dp, dn, fn in os.walk(root):
        dn[:] = [d for d in dn if d not in (".git", "node_modules")]
        for f in fn:
            yield os.path.relpath(os.path.join(dp, f), root)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--git-dir")
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--dir")
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--exclude", action="append", default=[])
    ap.add_argument("--by-file", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if bool(a.git_dir) == bool(a.dir):
        ap.error("give exactly one of --git-dir / --dir")
    paths = list_git(a.git_dir, a.rev) if a.git_dir else sorted(list_dir(a.dir))
    ex = [re.compile(x) for x in a.exclude]
    per_ext = defaultdict(lambda: [0, 0])
    rows = []
    for p in paths:
        if a.include and not any(p.startswith(x) for x in a.include):
            continue
        if any(r.search(p) for r in ex):
            continue
        e = ext_of(p)
        if e not in LANG:
            continue
        text = (read_git(a.git_dir, a.rev, p) if a.git_dir
                else open(os.path.join(a.dir, p), encoding="utf-8",
                          errors="replace").read())
        c = count_text(text, LANG[e], MULTILINE_STR.get(e, ()))
        rows.append((p, c))
        per_ext[e][0] += 1
        per_ext[e][1] += c
    total = sum(c for _, c in rows)
    if a.json:
        print(json.dumps({"files": len(rows), "code": total,
                          "by_ext": {k: {"files": v[0], "code": v[1]}
                                     for k, v in sorted(per_ext.items())}}))
        return
    if a.by_file:
        for p, c in rows:
            print(f"{c:6d}  {p}")
    for k, (f, c) in sorted(per_ext.items()):
        print(f"{k:8s} files={f:4d} code={c:6d}")
    print(f"TOTAL    files={len(rows):4d} code={total:6d}")


if __name__ == "__main__":
    sys.exit(main())
