"""manycoll.replay against `manycoll replay --json`, its errors, and
plot.replay: on the archive tests/replay_gen.c writes (REPLAY_GEN_EXE) and,
where the recording test ran first (REPLAY_CG4_DIR, a ctest fixture), on
the mini-application's 4-rank recording; in a build without OTF2
(REPLAY_NO_OTF2=1), the error it gives."""
import json
import os
import subprocess

import pytest

import manycoll
from conftest import env, program

GEN = os.environ.get("REPLAY_GEN_EXE")
CG4 = os.environ.get("REPLAY_CG4_DIR")
NO_OTF2 = os.environ.get("REPLAY_NO_OTF2") == "1"


def test_without_otf2(tmp_path):
    """a build without OTF2 says so, naming the package to install"""
    if not NO_OTF2:
        pytest.skip("this build has OTF2")
    with pytest.raises(manycoll.UnsupportedError,
                       match="without OTF2.*libopen-trace-format2-dev"):
        manycoll.replay(str(tmp_path), platform="scc48")


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    if not GEN:
        pytest.skip("REPLAY_GEN_EXE (tests/replay_gen) not given")
    d = str(tmp_path_factory.mktemp("replay") / "gen")
    subprocess.run([GEN, d], check=True)
    return d


def command_rows(*args):
    p = subprocess.run([program(), "replay"] + [str(a) for a in args],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, env=env())
    assert p.returncode == 0 and not p.stderr, p.stderr
    return [json.loads(x) for x in p.stdout.splitlines()]


def same(a, b):
    assert len(a) == len(b) and a
    for x, y in zip(a, b):
        x.pop("wall_s", None)
        y.pop("wall_s", None)
        assert x == y


@pytest.mark.parametrize("kw,args", [
    (dict(platform="scc48"), ["--platform", "scc48"]),
    (dict(platform="mesh8x8", ranks=24, compute_scale=0.5,
          algo={"bcast": "binomial"}),
     ["--platform", "mesh8x8", "--ranks", "24", "--compute-scale", "0.5",
      "--algo", "bcast=binomial"]),
    (dict(platform="scc48", best=True, map="linear"),
     ["--platform", "scc48", "--best", "--map", "linear"]),
])
def test_same_as_command(archive, kw, args):
    rows = manycoll.replay(archive, **kw)
    same(rows, command_rows(archive, "--json", *args))
    assert rows[-1]["coll"] == "total"
    assert {r["coll"] for r in rows[:-1]} == \
        {"allgatherv", "allreduce", "bcast", "p2p"}
    if kw.get("algo"):
        assert [r["algo"] for r in rows if r["coll"] == "bcast"] == \
            ["binomial"]


def test_errors(archive, tmp_path):
    with pytest.raises(manycoll.ArgumentError, match="does not exist"):
        manycoll.replay(str(tmp_path / "none"), platform="scc48")
    with pytest.raises(manycoll.ArgumentError, match="nope"):
        manycoll.replay(archive, platform="scc48", algo="bcast=nope")
    with pytest.raises(manycoll.ArgumentError, match="--ranks 3"):
        manycoll.replay(archive, platform="scc48", ranks=3)
    with pytest.raises(manycoll.Error, match="no_such_chip"):
        manycoll.replay(archive, platform="no_such_chip")
    with pytest.raises(manycoll.ArgumentError, match="compute_scale"):
        manycoll.replay(archive, platform="scc48", compute_scale=-1)


def test_plot(archive, tmp_path):
    pytest.importorskip("matplotlib")
    rows = manycoll.replay(archive, platform="scc48")
    kinds = manycoll.plot.replay_kinds(rows)
    assert set(kinds) == {"allgatherv", "allreduce", "bcast", "p2p"}
    # per rank over all ranks: the kinds add up to the total
    tot = rows[-1]
    assert sum(p for p, _ in kinds.values()) == \
        pytest.approx(tot["sim_us"], rel=1e-3)
    assert sum(m for _, m in kinds.values()) == \
        pytest.approx(tot["measured_us"], rel=1e-3)
    out = tmp_path / "replay.png"
    manycoll.plot.replay(rows).savefig(str(out))
    assert out.stat().st_size > 1000


def test_cg4():
    if not CG4 or not os.path.exists(os.path.join(CG4, "traces.otf2")):
        pytest.skip("no recording of examples/cg.c (REPLAY_CG4_DIR)")
    rows = manycoll.replay(CG4, platform="scc48", ranks=48)
    assert rows[-1]["ranks"] == 48 and rows[-1]["recorded_ranks"] == 4
    assert {r["coll"] for r in rows[:-1]} == \
        {"allreduce", "bcast", "gather", "p2p"}
    same(rows, command_rows(CG4, "--json", "--platform", "scc48", "--ranks",
                            "48"))
