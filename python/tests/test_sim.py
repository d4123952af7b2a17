"""The simulator and model API against the command's --json output, and
the plots."""
import json
import subprocess

import pytest

import manycoll
from conftest import env, program

VOLATILE = ("wall_s", "events_per_s", "start_wall_s")  # the host's time


def command_rows(*args):
    out = subprocess.run([program()] + [str(a) for a in args], check=True,
                         stdout=subprocess.PIPE, text=True, env=env()).stdout
    return [json.loads(x) for x in out.splitlines() if x.startswith("{")]


def same(a, b):
    assert len(a) == len(b) and a
    for x, y in zip(a, b):
        for k in VOLATILE:
            x.pop(k, None)
            y.pop(k, None)
        assert x == y


@pytest.mark.parametrize("kw,args", [
    (dict(platform="scc48", coll="bcast", algo="ocbcast", sizes=[32, 4096]),
     ["--platform", "scc48", "--coll", "bcast", "--algo", "ocbcast",
      "--sizes", "32,4096"]),
    (dict(platform="scc48", coll="allreduce", sizes=[8, 65536], ranks=12,
          contention="none", jitter=7),
     ["--platform", "scc48", "--coll", "allreduce", "--sizes", "8,65536",
      "--ranks", "12", "--contention", "none", "--jitter", "7"]),
    (dict(platform="tilepro64", coll="reduce", algo="binomial", sizes=[100],
          root=3, ranks=9, check=True, dtype="int32", op="max",
          contention=["mpb", "link"]),
     ["--platform", "tilepro64", "--coll", "reduce", "--algo", "binomial",
      "--sizes", "100", "--root", "3", "--ranks", "9", "--check",
      "--dtype", "int32", "--op", "max", "--contention", "mpb,link"]),
    (dict(platform="xeonphi60", coll="barrier", ranks=10),
     ["--platform", "xeonphi60", "--coll", "barrier", "--ranks", "10"]),
])
def test_sim_run_is_the_command(kw, args):
    same(manycoll.sim.run(**kw), command_rows("sim", "--json", *args))


def test_many_sizes_and_repeats():
    sizes = [32 * (k + 1) for k in range(70)]  # more than one command call
    rows = manycoll.sim.run("mesh4x4", "allgather", sizes=sizes)
    assert [r["bytes"] for r in rows] == sizes
    again = manycoll.sim.run("mesh4x4", "allgather", sizes=sizes[:3])
    same(rows[:3], again)  # deterministic, and no state left behind


def test_model_is_the_command():
    same(manycoll.model.predict("scc48", algo="binomial", sizes=[64, 8192]),
         command_rows("model", "--platform", "scc48", "--coll", "bcast",
                      "--algo", "binomial", "--sizes", "64,8192", "--mode",
                      "paper", "--json"))
    same(manycoll.model.optimize("xeonphi60", "barrier", ranks="2-6"),
         command_rows("model", "optimize", "--profile", "xeonphi60",
                      "--coll", "barrier", "--ranks", "2-6", "--json"))


def test_bad_arguments():
    with pytest.raises(ValueError, match="no platforms named 'nochip'"):
        manycoll.sim.run("nochip", "bcast")
    with pytest.raises(ValueError, match="unknown bcast algorithm 'x'"):
        manycoll.sim.run("scc48", "bcast", algo="x")
    with pytest.raises(ValueError, match="unknown collective"):
        manycoll.algorithms("bcastt")


def test_registry():
    names = {a["algo"] for a in manycoll.algorithms("bcast")}
    assert {"binomial", "ocbcast", "scatter-allgather"} <= names
    ring = [a for a in manycoll.algorithms("allreduce") if a["algo"] == "ring"]
    assert ring and isinstance(ring[0]["params"], list)
    assert {"scc48", "tilepro64", "xeonphi60"} <= set(manycoll.platforms())
    assert "allreduce" in manycoll.collectives()


def test_sweep():
    rows = manycoll.sim.sweep(["scc48", "mesh4x4"], "bcast",
                              algos=["binomial", "ocbcast"], sizes=[64, 4096])
    assert len(rows) == 8
    assert {(r["platform"], r["algo"].split(":")[0]) for r in rows} == {
        (p, a) for p in ("scc48", "mesh4x4") for a in ("binomial", "ocbcast")}
    full = manycoll.sim.sweep("mesh4x4", "barrier")
    ran = {r["algo"].split(":")[0] for r in full if "error" not in r}
    assert ran and ran <= {a["algo"] for a in manycoll.algorithms("barrier")}


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    rows = manycoll.sim.sweep("scc48", "bcast", algos=["binomial", "ocbcast"],
                              sizes=[64, 1024, 16384])
    rows += manycoll.model.predict("scc48", algo="ocbcast",
                                   sizes=[64, 1024, 16384])
    fig = manycoll.plot.sizes(rows)
    lat, bw = fig.axes
    labels = sorted(line.get_label() for line in lat.get_lines())
    assert len(labels) == 3 and any("model" in x for x in labels), labels
    ys = [list(line.get_ydata()) for line in bw.get_lines()]
    assert all(len(y) == 3 and y[0] < y[-1] for y in ys)  # bw grows
    fig.savefig(tmp_path / "x.png")
    assert (tmp_path / "x.png").stat().st_size > 1000


def test_plot_labels_fallback():
    """a line whose algorithm fell back says what was asked and what ran
    (the rows' algo and ran), not the fallback's name alone"""
    rows = [dict(algo="direct", ran="flat", bytes=b, lat_us=1.0)
            for b in (8, 64)]
    rows += [dict(algo="flat:k=2", ran="flat:k=2", bytes=8, lat_us=1.0)]
    assert list(manycoll.plot.groups(rows)) == ["direct \u2192 flat",
                                                "flat:k=2"]
def test_threads():
    """Simulations in two threads at once (the GIL is released while they
    run) give what they give one after the other."""
    import threading
    jobs = [dict(platform="scc48", coll="allreduce", sizes=[8, 4096]),
            dict(platform="mesh4x4", coll="bcast", algo="binomial",
                 sizes=[64, 65536], check=True)]
    alone = [manycoll.sim.run(**kw) for kw in jobs]
    got = [None] * (2 * len(jobs))

    def work(i):
        got[i] = manycoll.sim.run(**jobs[i % len(jobs)])

    threads = [threading.Thread(target=work, args=(i,))
               for i in range(len(got))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, rows in enumerate(got):
        same(rows, alone[i % len(jobs)])


def test_cc_predict_is_the_command():
    same(manycoll.model.cc_predict("xeonphi60", "bcast-small", "2-5",
                                   k="2,2"),
         command_rows("model", "predict", "--profile", "xeonphi60",
                      "--coll", "bcast-small", "--ranks", "2-5", "--k",
                      "2,2", "--json"))
    same(manycoll.model.cc_predict("xeonphi60", "bcast-flat", [3, 8],
                                   lines=64),
         command_rows("model", "predict", "--profile", "xeonphi60",
                      "--coll", "bcast-flat", "--ranks", "3,8", "--lines",
                      "64", "--json"))
    with pytest.raises(ValueError, match="unknown option '--nope'"):
        manycoll.model.optimize("xeonphi60", "barrier", nope=1)


def test_registry_is_the_command():
    rows = [r for r in command_rows("info", "--json") if "algo" in r]
    assert manycoll.algorithms() == rows
