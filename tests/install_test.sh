#!/bin/sh
# install_test.sh BUILD_DIR SOURCE_DIR
#
# `make install` gives a working tool anywhere: install to a temporary
# prefix, move the prefix somewhere else (so neither the configured prefix
# nor the build or source tree can be where it finds things), and from the
# moved tree, with no MC_ variable set, run sim, model, bench, the example
# built with pkg-config, the man page and the completion.
set -e
build=$(cd "$1" && pwd); src=$(cd "$2" && pwd)
top=$(mktemp -d)
trap 'rm -rf "$top"' EXIT
prefix="$top/first"
cmake --install "$build" --prefix "$prefix" >/dev/null
mv "$prefix" "$top/moved"
prefix="$top/moved"
for f in bin/manycoll include/manycoll.h lib/pkgconfig/manycoll.pc \
         share/manycoll/platforms/scc48.json \
         share/manycoll/platforms/profiles/xeonphi60.json \
         share/man/man1/manycoll.1 \
         share/bash-completion/completions/manycoll; do
    [ -e "$prefix/$f" ] || { echo "missing $f"; exit 1; }
done
ls "$prefix"/lib/libmanycoll.so "$prefix"/lib/libmanycoll.a >/dev/null
mc="$prefix/bin/manycoll"
# the installed command, run as a user would: no MC_ variables, elsewhere
clean() { env -u MC_DATA_DIR -u MC_TUNING "$@"; }
cd "$top"
clean "$mc" --version > version.txt
grep -q "^  $prefix/bin/../share/manycoll\$" version.txt ||
    { echo "--version does not search the moved prefix:"; cat version.txt; exit 1; }
if grep -q "$src" version.txt; then
    echo "the installed command searches the source tree:"; cat version.txt; exit 1
fi
clean "$mc" sim --platform scc48 --coll bcast --sizes 32 --json 2>/dev/null |
    grep -q '"platform":"scc48"'
clean "$mc" model profile --profile xeonphi60 | grep -q "profile xeonphi60"
clean "$mc" model --platform scc48 --table2 >/dev/null
clean "$mc" bench -n 2 --coll allreduce --sizes 8 --iters 10 | grep -q "^8 "
# a program written only against the public header, built with pkg-config
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cc -std=c11 -Wall -Werror "$src/examples/every_collective.c" \
   $(pkg-config --cflags --libs manycoll) -Wl,-rpath,"$prefix/lib" \
   -o "$top/every_collective"
# the public header must also be valid C++
printf '#include <manycoll.h>\nint main(){mc_comm_t *c; return mc_init(&c);}\n' |
    c++ -x c++ -Wall -Werror $(pkg-config --cflags manycoll) -fsyntax-only -
clean "$mc" run -n 4 "$top/every_collective"
# `manycoll info` names the MPI variants installed beside it, by their
# installed path (none when the build found no MPI)
for so in "$prefix"/lib/libmanycoll_mpi_*.so; do
    [ -e "$so" ] || continue
    clean "$mc" info | grep -qF "LD_PRELOAD=$so" ||
        clean "$mc" info | grep -qF "LD_PRELOAD $so" ||
        { echo "manycoll info does not list $so:"; clean "$mc" info | tail; exit 1; }
done
# the man page has a section per command; the completion offers them
grep -q '^\.SS sim$' "$prefix/share/man/man1/manycoll.1"
if command -v bash >/dev/null; then
    out=$(PATH="$prefix/bin:$PATH" bash -c '
        . "$1"; COMP_WORDS=(manycoll si); COMP_CWORD=1; _manycoll manycoll
        echo "${COMPREPLY[@]}"
        COMP_WORDS=(manycoll sim --con); COMP_CWORD=2; _manycoll manycoll
        echo "${COMPREPLY[@]}"' sh "$prefix/share/bash-completion/completions/manycoll")
    [ "$out" = "$(printf 'sim\n--contention')" ] ||
        { echo "completion: got '$out'"; exit 1; }
fi
echo "install_test: the moved install works"
