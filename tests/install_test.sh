#!/bin/sh
# install_test.sh BUILD_DIR SOURCE_DIR
set -e
build=$1; src=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/manycoll include/manycoll.h lib/pkgconfig/manycoll.pc; do
    [ -e "$prefix/$f" ] || { echo "missing $f"; exit 1; }
done
ls "$prefix"/lib/libmanycoll.so "$prefix"/lib/libmanycoll.a >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cc -std=c11 -Wall -Werror "$src/examples/every_collective.c" \
   $(pkg-config --cflags --libs manycoll) -o "$prefix/every_collective"
# the public header must also be valid C++
printf '#include <manycoll.h>\nint main(){mc_comm_t *c; return mc_init(&c);}\n' |
    c++ -x c++ -Wall -Werror $(pkg-config --cflags manycoll) -fsyntax-only -
"$prefix/bin/manycoll" run -n 4 "$prefix/every_collective"
