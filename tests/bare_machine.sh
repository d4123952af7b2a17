#!/bin/bash
# A new user's first hour on a bare Debian machine, replayed: the README's
# lines, literally, in a Debian 12 "minbase" root made by debootstrap (no
# compiler, no make, no git), under chroot. Not part of `make test` (it
# downloads about 400 MB and takes 10-25 minutes); run it by hand, as root:
#
#   tests/bare_machine.sh [ROOT_DIR]        (default /srv/mc-bare)
#
#   host                                   chroot ROOT_DIR (Debian 12 minbase)
#   debootstrap bookworm --variant=minbase
#   git bundle of HEAD  ---------------->  apt-get install git make
#                                          git clone; make deps (yes)
#                                          make demo          (timed)
#                                          make install PREFIX=/opt/mc
#                                          an MPI program + the preload line
#                                            that `manycoll info` prints
#                                          python3 -m venv; pip install .
#                                          manycoll.sim.run(...) as data
#
# Each step prints "STEP rc=N SECONDS s"; the script exits non-zero at
# the first step that fails. The host's CA bundle is copied in, so that
# pip works behind a proxy that signs TLS itself (as this project's
# machines do); apt-get uses the host's sources.
set -u
root=${1:-/srv/mc-bare}
here=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" = 0 ] || { echo "bare_machine: needs root (debootstrap, chroot)"; exit 2; }
command -v debootstrap >/dev/null || { echo "bare_machine: apt-get install debootstrap"; exit 2; }
if [ ! -x "$root/bin/bash" ]; then
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian \
        >"$root.debootstrap.log" 2>&1 || { tail "$root.debootstrap.log"; exit 1; }
fi
cp /etc/resolv.conf "$root/etc/"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/" 2>/dev/null
git -C "$here" bundle create "$root/mc.bundle" HEAD >/dev/null 2>&1
for m in proc sys dev dev/pts dev/shm; do
    mountpoint -q "$root/$m" || mount --bind "/$m" "$root/$m"
done
trap 'for m in dev/shm dev/pts dev sys proc; do umount "$root/$m" 2>/dev/null; done' EXIT
cat >"$root/walk.sh" <<'WALK'
set -u
export HOME=/root LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
step() { # NAME COMMAND...: run, time, stop at a failure
    local name=$1 t=$(date +%s); shift
    "$@"; local rc=$?
    echo "$name rc=$rc $(( $(date +%s) - t )) s"
    [ $rc = 0 ] || exit $rc
}
cd /root && rm -rf manycoll
step apt-get sh -c 'apt-get update -q >/dev/null && apt-get install -y -q git make >/dev/null'
step clone git clone -q /mc.bundle manycoll
cd manycoll
step make-deps sh -c 'yes | make deps >/tmp/deps.log 2>&1'
step make-demo make demo
echo "make demo built $(grep -c 'Building C' build/demo-build.log) C files"
step make-install sh -c 'make install PREFIX=/opt/mc >/tmp/install.log 2>&1'
export PATH=/opt/mc/bin:$PATH
cat >/tmp/hello.c <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int c, char **v)
{
    int r, s = 0, x = 1;
    MPI_Init(&c, &v);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Allreduce(&x, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (!r)
        printf("sum %d\n", s);
    MPI_Finalize();
    return s != 2;
}
C
step mpicc mpicc.openmpi -o /tmp/hello /tmp/hello.c
pre=$(manycoll info | grep -o "LD_PRELOAD=[^ ]*openmpi[^ ]*" | head -1)
echo "preload line from manycoll info: $pre"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
step drop-in mpirun.openmpi --oversubscribe -n 2 -x MC_MPI_VERBOSE=1 -x "$pre" /tmp/hello
step venv python3 -m venv /root/mc-venv
. /root/mc-venv/bin/activate
step pip-install sh -c 'pip install . >/tmp/pip.log 2>&1'
cd /tmp
step python python3 -c "import manycoll; print(manycoll.sim.run(platform='scc48', coll='bcast', sizes=[8])[0]['lat_us'], 'us')"
WALK
chroot "$root" /bin/bash /walk.sh
