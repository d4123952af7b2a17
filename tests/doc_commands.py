#!/usr/bin/env python3
"""Every command line of the docs that a reader would paste is one the
command accepts.

- In the fenced sh, bash, shell and console blocks of each DOC, every
  invocation of the command (`manycoll ...`, `build/manycoll ...`,
  `$PREFIX/bin/manycoll ...`, after `VAR=value` prefixes, in a pipe or a
  `$(...)`, over `\\` continuations; console blocks: the `$ ` lines) runs
  with MC_CMD_PARSE_ONLY=1: each subcommand parses and checks its command
  line (sim and model also load the platform and place the ranks), then
  exits 0 without running anything (tools/tools.h, mc_parse_only). It
  must exit 0 and say nothing of an unknown option.
- In the untagged blocks (the README's synopsis of the command), every
  option of a `manycoll CMD ...` line must be one CMD's parser knows;
  a line there without placeholders ([...], A|B, CAPITALS) runs whole,
  as above.

    doc_commands.py MANYCOLL DOC...

Exit 0 when every line passes; otherwise the file, line and why, exit 1.
"""
import os
import re
import shlex
import subprocess
import sys

SHELL_LANGS = {"sh", "bash", "shell", "console", "shell-session"}
SEPARATORS = {"|", "||", "&&", ";", "&", "(", ")", "$(", "`"}


def blocks(path):
    """(lang, [(lineno, text)]) for each fenced block of a markdown file"""
    lang, body = None, []
    with open(path) as f:
        for n, line in enumerate(f.read().splitlines(), 1):
            s = line.strip()
            if s.startswith("```"):
                if lang is None:
                    lang, body = s[3:].strip().lower() or "-", []
                else:
                    yield lang, body
                    lang = None
            elif lang is not None:
                body.append((n, line))


def logical_lines(body, console):
    """joins backslash continuations; console blocks keep `$ ` lines"""
    out, cur, start = [], "", None
    for n, line in body:
        if not cur:
            if console:
                s = line.lstrip()
                if not s.startswith("$ "):
                    continue
                line = s[2:]
            start = n
        if line.rstrip().endswith("\\"):
            cur += line.rstrip()[:-1] + " "
            continue
        out.append((start, cur + line))
        cur = ""
    if cur:
        out.append((start, cur))
    return out


def tokens(line):
    lex = shlex.shlex(line.replace("$(", " ( "), posix=True,
                      punctuation_chars="|&;()")
    lex.whitespace_split = True
    lex.commenters = "#"
    return list(lex)


def invocations(line):
    """(env, args) for each simple command of line whose command word is
    the command"""
    found, cmd = [], []
    for t in tokens(line) + [";"]:
        if t not in SEPARATORS:
            cmd.append(t)
            continue
        env = {}
        while cmd and (cmd[0] == "env" or
                       re.match(r"[A-Za-z_]\w*=", cmd[0])):
            if cmd[0] != "env":
                k, v = cmd[0].split("=", 1)
                env[k] = v
            cmd.pop(0)
        if cmd and os.path.basename(cmd[0]) == "manycoll":
            found.append((env, cmd[1:]))
        cmd = []
    return found


def run(mc, args, env=None, cwd=None):
    e = dict(os.environ, MC_CMD_PARSE_ONLY="1", MC_TUNING="none")
    e.update(env or {})
    p = subprocess.run([mc, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=60, env=e,
                       cwd=cwd)
    return p.returncode, p.stderr


def check_line(mc, env, args, cwd):
    rc, err = run(mc, args, env, cwd)
    if rc != 0 or "unknown option" in err or "unknown command" in err:
        return f"exit {rc}: " + " / ".join(err.strip().splitlines()[:2])
    return None


PLACEHOLDER = re.compile(r"\[|\||\b[A-Z]{2,}\b|\b[A-Z]\b")


def synopsis_entries(body):
    """(lineno, words) for each `manycoll CMD ...` line of an untagged
    block, with its indented continuation lines that start with '['"""
    out = []
    for n, line in body:
        s = line.strip()
        if re.match(r"manycoll [a-z][a-z-]*(\s|$)", line):  # not output
            # the description column starts after two or more spaces
            out.append((n, re.split(r"\s{2,}", s)[0]))
        elif out and s.startswith("[") and line.startswith(" "):
            out[-1] = (out[-1][0],
                       out[-1][1] + " " + re.split(r"\s{2,}", s)[0])
    return out


def check_synopsis(mc, text, cwd):
    """the why for each option of text CMD's parser does not know"""
    words = text.split()
    cmd, rest = words[1], words[2:]
    prefix = []
    while rest and re.match(r"[a-z][a-z-]*$", rest[0]):
        prefix.append(rest.pop(0))  # model's optimize, ...
    opts = []
    for o in re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", " ".join(rest)):
        if o not in opts:
            opts.append(o)
    bad = []
    for o in opts:
        # an option may be known only after another (info --tuning -n)
        tries = [[o]] + [[p, o] for p in opts if p != o]
        if not any(f"unknown option '{o}'" not in
                   run(mc, [cmd, *prefix, *t], cwd=cwd)[1] for t in tries):
            bad.append(f"{cmd}: the parser does not know {o}")
    return bad


def main():
    mc, docs = os.path.abspath(sys.argv[1]), sys.argv[2:]
    failures, checked = [], 0
    for doc in docs:
        cwd = os.path.dirname(os.path.abspath(doc))
        if os.path.basename(cwd) == "docs":
            cwd = os.path.dirname(cwd)  # the docs' paths are the tree's
        name = os.path.relpath(doc)
        for lang, body in blocks(doc):
            if lang in SHELL_LANGS:
                for n, line in logical_lines(body, lang != "sh" and
                                             lang != "bash" and
                                             lang != "shell"):
                    for env, args in invocations(line):
                        checked += 1
                        why = check_line(mc, env, args, cwd)
                        if why:
                            failures.append(f"{name}:{n}: manycoll "
                                            f"{' '.join(args)}: {why}")
            elif lang == "-":
                for n, text in synopsis_entries(body):
                    checked += 1
                    for why in check_synopsis(mc, text, cwd):
                        failures.append(f"{name}:{n}: {why}")
                    if not PLACEHOLDER.search(text[len("manycoll"):]):
                        why = check_line(mc, {}, text.split()[1:], cwd)
                        if why:
                            failures.append(f"{name}:{n}: {text}: {why}")
    for f in failures:
        print("FAIL:", f)
    print(f"doc_commands: {checked} command lines in {len(docs)} files, "
          f"{len(failures)} failures")
    if checked == 0:
        print("FAIL: no command line found (is the extraction broken?)")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
