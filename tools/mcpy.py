"""The Python package for the scripts in tools/: `import manycoll` when it
is installed (pip install .), else the one staged by `make build` in
build/python (or next to the given manycoll program's build directory)."""
import os
import sys


def manycoll(program=None):
    try:
        import manycoll as mc
        return mc
    except ImportError:
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    build = (os.path.dirname(os.path.abspath(program)) if program
             else os.path.join(here, "..", "build"))
    sys.path.insert(0, os.path.join(build, "python"))
    try:
        import manycoll as mc
    except ImportError as e:
        sys.exit("%s: the Python package is neither installed nor built in "
                 "%s/python (make build; pip install .): %s" %
                 (os.path.basename(sys.argv[0]), build, e))
    return mc
