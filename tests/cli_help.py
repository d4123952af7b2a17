#!/usr/bin/env python3
"""One convention for every subcommand of the command (tools/help.c):

- `manycoll CMD --help` and `-h` print the full usage on stdout, exit 0;
- an unknown option exits 2, names the option on stderr, points at
  --help, and prints nothing on stdout;
- every option the usage names is one the parser knows (an option that
  the usage shows but the parser rejects, or the reverse for the ones
  listed here, fails);
- `manycoll --version` names the version and where data is searched;
- `manycoll help --man` renders every command into the man page, and
  says how MPI programs get libmanycoll_mpi.

    cli_help.py MANYCOLL
"""
import os
import re
import subprocess
import sys

MC = sys.argv[1]
failures = []


def run(*args, timeout=60):
    p = subprocess.run([MC, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=timeout,
                       env=dict(os.environ, MC_TUNING="none"))
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        failures.append(what)


def commands():
    rc, out, _ = run("help")
    check(rc == 0, "manycoll help: exit 0")
    cmds = []
    in_list = False
    for line in out.splitlines():
        if line.startswith("commands:"):
            in_list = True
        elif in_list and line.startswith("  "):
            cmds.append(line.split()[0])
    check(len(cmds) >= 8, f"manycoll help lists the commands: {cmds}")
    return cmds


# what to put before an option so that the parser reaches it without
# starting real work: calibrate would measure, model has two forms
PREFIX = {"calibrate": [["--reps", "1"]],
          "model": [["predict"], ["--platform", "scc48"]]}


def accepted(cmd, opt):
    """the parser knows opt (with no value it may complain of anything
    else: a missing value or a missing required option)"""
    for pre in PREFIX.get(cmd, [[]]):
        args = [cmd, *pre, opt] if cmd != "run" else [cmd, opt]
        if cmd == "calibrate":
            args = [cmd, opt, *pre]
        rc, out, err = run(*args)
        if f"unknown option '{opt}'" not in err:
            return True
    return False


def main():
    cmds = commands()
    for cmd in cmds:
        for flag in ("--help", "-h"):
            rc, out, err = run(cmd, flag)
            check(rc == 0, f"{cmd} {flag}: exit {rc}, not 0")
            check(out.startswith("usage: manycoll"),
                  f"{cmd} {flag}: usage on stdout")
            check("-h, --help" in out, f"{cmd} {flag}: names -h, --help")
            check(err == "", f"{cmd} {flag}: nothing on stderr: {err!r}")
        rc, out, err = run(cmd, "--no-such-option")
        check(rc == 2, f"{cmd} --no-such-option: exit {rc}, not 2")
        check("unknown option '--no-such-option'" in err or
              "subcommand '--no-such-option'" in err,
              f"{cmd} --no-such-option: names it: {err!r}")
        check(f"manycoll {cmd} --help" in err,
              f"{cmd} --no-such-option: points at --help: {err!r}")
        check(out == "", f"{cmd} --no-such-option: stdout empty")
        _, usage, _ = run(cmd, "--help")
        opts = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", usage))
        opts.discard("--help")
        for opt in sorted(opts):
            if cmd == "run" and opt == "--np":
                continue
            check(accepted(cmd, opt), f"{cmd}: the usage names {opt}, "
                  "the parser rejects it")
    # run's --help is run's only before PROG: after it, PROG's
    for args in (["-n", "1", "--"], ["-n", "1"]):
        rc, out, err = run("run", *args, "printf", "[%s]", "--help")
        check(rc == 0 and out == "[--help]",
              f"run {' '.join(args)} printf [%s] --help: PROG gets --help "
              f"({out!r})")
    rc, out, err = run("--version")
    check(rc == 0 and re.match(r"manycoll \d+\.\d+\.\d+\n", out),
          f"--version: {out!r}")
    check("data (platforms, profiles)" in out, "--version: data dirs")
    rc, out, err = run("help", "--man")
    check(rc == 0 and out.startswith(".TH MANYCOLL 1"), "help --man: .TH")
    for cmd in cmds:
        check(f".SS {cmd}\n" in out, f"help --man: section {cmd}")
    check(".SH MPI PROGRAMS\n" in out and "libmanycoll_mpi_mpich.so" in out
          and "manycoll info" in out, "help --man: the MPI drop-in")
    rc, out, err = run("no-such-command")
    check(rc == 2 and "unknown command 'no-such-command'" in err,
          "an unknown command: exit 2, named")
    rc, out, err = run()
    check(rc == 2 and "usage: manycoll" in err, "no command: usage, exit 2")
    for f in failures:
        print("FAIL:", f)
    print(f"cli_help: {len(cmds)} commands, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
