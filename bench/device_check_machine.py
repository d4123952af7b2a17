"""The machine a device check ran on (bench/device_check.py, step 1):
CPU model, CPUs online and available, physical cores, sockets, NUMA
nodes, load, and the topology as hwloc's lstopo draws it (or /sys)."""
import os
import platform
import re


def _which(p):
    return any(os.access(os.path.join(d, p), os.X_OK)
               for d in os.environ.get("PATH", "").split(os.pathsep))


def _read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return "?"


def describe(run):
    """the machine as a dict; run(cmd, timeout) -> (status, out, err)"""
    m = {"hostname": platform.node(), "kernel": platform.release()}
    model = None
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    m["cpu_model"] = model or platform.processor() or "unknown"
    m["cpus_online"] = os.cpu_count()
    m["cpus_available"] = len(os.sched_getaffinity(0))
    cores, sockets = set(), set()
    base = "/sys/devices/system/cpu"
    for c in sorted(os.sched_getaffinity(0)):
        try:
            with open(f"{base}/cpu{c}/topology/core_id") as f:
                core = f.read().strip()
            with open(f"{base}/cpu{c}/topology/physical_package_id") \
                    as f:
                pkg = f.read().strip()
            cores.add((pkg, core))
            sockets.add(pkg)
        except OSError:
            pass
    m["physical_cores"] = len(cores) or None
    m["sockets"] = len(sockets) or None
    nodes = sorted(d for d in os.listdir("/sys/devices/system/node")
                   if re.fullmatch(r"node\d+", d)) \
        if os.path.isdir("/sys/devices/system/node") else []
    m["numa_nodes"] = len(nodes) or None
    with open("/proc/loadavg") as f:
        m["loadavg"] = " ".join(f.read().split()[:3])
    st, out, err = run(["lstopo-no-graphics", "--of", "console"],
                            30) if _which("lstopo-no-graphics") \
        else (None, "", "")
    if st == 0 and out.strip():
        m["topology_source"] = "lstopo-no-graphics --of console"
        m["topology"] = out.rstrip()
    else:
        m["topology_source"] = "/sys (hwloc's lstopo-no-graphics " \
                               "not found)"
        m["topology"] = "\n".join(
            f"{n}: CPUs {_read(f'/sys/devices/system/node/{n}/cpulist')}"
            for n in nodes) or "no NUMA information in /sys"
    return m


def lines_in_flight(profile):
    """the lines a core of a calibrated machine keeps in flight (a
    platform's `outstanding`): R_R over the E-E multi-line fit's cost per
    line, 1 to 64; 1 where the profile has neither"""
    o = [m.get("o") for m in profile.get("multiline", [])
         if m.get("states") == "E-E"]
    rr = profile.get("clustered", {}).get("R_R")
    return max(1, min(64, round(rr / o[0]))) if o and o[0] and rr else 1
