"""`manycoll` and `python -m manycoll`: the manycoll program of this
package (the same command as the C build's; README.md lists it).

`python -m manycoll run -n 4 script.py [args]` starts the ranks with this
Python: a program ending in .py, or -m/-c, runs under sys.executable.
"""
import os
import sys


def program():
    """Path of the bundled `manycoll` program."""
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "_bin", "manycoll")


def _with_python(args):
    """run's arguments with sys.executable before a Python program."""
    i = 1
    while i < len(args) and args[i].startswith("-"):
        if args[i] == "--":
            i += 1
            break
        i += 2 if args[i] in ("-n", "--np", "--timeout") else 1
    if i < len(args) and (args[i].endswith(".py") or args[i] in ("-m", "-c")):
        return args[:i] + [sys.executable] + args[i:]
    return args


def main(argv=None, python_launcher=False):
    args = list(sys.argv[1:] if argv is None else argv)
    if python_launcher and args[:1] == ["run"]:
        args = _with_python(args)
    exe = program()
    here = os.path.dirname(exe)
    data = os.path.join(os.path.dirname(here), "data")
    if os.path.isdir(os.path.join(data, "platforms")):
        os.environ.setdefault("MC_DATA_DIR", data)
    os.execv(exe, [exe] + args)


if __name__ == "__main__":
    main(python_launcher=True)
