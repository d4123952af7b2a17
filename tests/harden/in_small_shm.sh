#!/bin/sh
# in_small_shm.sh SIZE CMD [ARGS]: runs CMD with a /dev/shm of SIZE (a
# tmpfs in a private mount namespace: nothing changes for other
# processes). Exits 77 (the test is skipped) where a mount namespace
# cannot be made (not root, or a container without CAP_SYS_ADMIN).
size=$1; shift
if ! unshare -m --propagation private true 2>/dev/null; then
    echo "in_small_shm.sh: cannot make a mount namespace here: skipped"
    exit 77
fi
exec unshare -m --propagation private sh -c \
    'mount -t tmpfs -o size="$0" tmpfs /dev/shm && exec "$@"' "$size" "$@"
