#!/bin/sh
# make deps: installs what the project needs with this machine's package
# manager (apt-get: Debian, Ubuntu; dnf: Fedora; brew: macOS), after
# printing the packages and the command.
#
#   tools/deps.sh [--print] [--yes] [GROUP...]
#
# GROUP: build (compiler, CMake, pkg-config, jansson, python3, and hwloc:
# recommended, not required; without it the topology comes from Linux
# sysfs and the tests on hwloc's synthetic machines are skipped),
# mpi (Open MPI and MPICH, for the drop-in libmanycoll_mpi; OTF2 and
# otf2-tools, for its recording MC_MPI_TRACE and the tests that read the
# archive), python (the
# Python package's headers, venv, matplotlib), test (what `make test`
# adds: valgrind, clang); default: build mpi python. --print prints the
# command and stops; --yes does not ask (apt-get -y, dnf -y). .ci/run
# calls it with --yes build mpi python test.
#
# Tried: apt-get (Debian 12). dnf and brew: the package names are
# believed right but were not tried here.
set -e
print=0 yes=0 groups=
for a in "$@"; do
    case $a in
    --print) print=1 ;;
    --yes) yes=1 ;;
    build|mpi|python|test) groups="$groups $a" ;;
    -h|--help) sed -n '2,19s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "deps.sh: unknown argument '$a' (build, mpi, python, test," \
            "--print, --yes)" >&2; exit 2 ;;
    esac
done
[ -n "$groups" ] || groups="build mpi python"

if command -v apt-get >/dev/null 2>&1; then pm=apt-get
elif command -v dnf >/dev/null 2>&1; then pm=dnf
elif command -v brew >/dev/null 2>&1; then pm=brew
else
    echo "deps.sh: no apt-get, dnf or brew here; README.md says what" \
         "the build needs (a C11 compiler, CMake, pkg-config, jansson," \
         "python3; hwloc recommended)" >&2
    exit 1
fi

pkgs() { # pkgs GROUP: the group's packages for $pm
    case $pm:$1 in
    apt-get:build) echo build-essential cmake pkg-config libjansson-dev libhwloc-dev python3 ;;
    apt-get:mpi) echo openmpi-bin libopenmpi-dev mpich libmpich-dev libopen-trace-format2-dev otf2-tools ;;
    apt-get:python) echo python3-dev python3-venv python3-matplotlib ;;
    apt-get:test) echo valgrind clang iproute2 ;;
    dnf:build) echo gcc make cmake pkgconf jansson-devel hwloc-devel python3 ;;
    dnf:mpi) echo openmpi-devel mpich-devel ;;
    dnf:python) echo python3-devel python3-matplotlib ;;
    dnf:test) echo valgrind clang iproute ;;
    # macOS: Apple's clang is the compiler (xcode-select --install);
    # Homebrew's open-mpi and mpich conflict: Open MPI only
    brew:build) echo cmake pkg-config jansson hwloc python ;;
    brew:mpi) echo open-mpi ;;
    brew:python) echo python-matplotlib ;;
    brew:test) echo llvm ;;
    esac
}
list=
for g in $groups; do list="$list $(pkgs "$g")"; done
list=${list# }

sudo=
if [ "$pm" != brew ] && [ "$(id -u)" != 0 ]; then sudo="sudo "; fi
case $pm in
apt-get)
    # --yes: no question from apt-get or from debconf (through sudo too)
    y=; [ $yes = 1 ] && y="env DEBIAN_FRONTEND=noninteractive "
    update="${sudo}apt-get update"
    cmd="${sudo}${y}apt-get install ${y:+-y }--no-install-recommends $list" ;;
dnf)
    y=; [ $yes = 1 ] && y="-y "
    update=
    cmd="${sudo}dnf install $y$list" ;;
brew)
    update=
    cmd="brew install $list" ;;
esac

echo "deps.sh: $pm found; groups:$(printf ' %s' $groups); packages: $list"
[ "$pm" = apt-get ] || echo "deps.sh: (not tried here with $pm)"
[ -n "$update" ] && echo "  $update"
echo "  $cmd"
[ $print = 1 ] && exit 0
if [ -n "$update" ]; then
    if [ $yes = 1 ]; then $update -qq; else $update; fi
fi
if [ "$pm" = apt-get ] && [ $yes = 1 ]; then
    $cmd -qq >/dev/null
else
    $cmd
fi
echo "deps.sh: done"
