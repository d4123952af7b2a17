"""Shared helpers: the manycoll program of the package under test, and a
runner for multi-process jobs."""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def program():
    from manycoll.__main__ import program as p
    return p()


def env(**extra):
    e = dict(os.environ)
    e.setdefault("MC_TUNING", "none")
    e.update({k: str(v) for k, v in extra.items()})
    return e


def run(cmd, timeout=120, **extra):
    """Runs cmd; returns (exit status, stdout + stderr)."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=timeout, env=env(**extra))
    return p.returncode, p.stdout


def mc_run(n, script, *args, timeout=120, **extra):
    """`manycoll run -n N python3 script args` with this Python."""
    return run([program(), "run", "-n", str(n), "--timeout", str(timeout),
                sys.executable, os.path.join(HERE, script)] + list(args),
               timeout=timeout + 30, **extra)


@pytest.fixture
def world():
    import manycoll
    return manycoll.init()
