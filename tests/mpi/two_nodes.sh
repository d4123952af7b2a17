#!/bin/sh
# Two real "nodes" on one machine, for the MPI drop-in's hierarchy:
#
#   tests/mpi/two_nodes.sh MPIRUN PROGRAM [ARGS...]
#
#   node a (netns mcN-a, hostname mc-node-a)      node b (netns mcN-b, ...)
#   +-------------------------------+  veth pair  +-------------------------+
#   | mpirun, ranks 0 1             |=============| orted, ranks 2 3        |
#   | own /dev/shm (tmpfs)          | 10.X.Y.1/2  | own /dev/shm (tmpfs)    |
#   +-------------------------------+   TCP only  +-------------------------+
#
# Each node is a network, UTS and mount namespace: its own hostname, its own
# /dev/shm (so no shared-memory segment can span the nodes), and only the
# private link between them. Open MPI's mpirun runs in node a and starts
# node b's daemon through a plm_rsh_agent script that enters node b, as ssh
# would. MPI itself then sees two hosts, MPI_COMM_TYPE_SHARED splits them,
# and the inter-node phase goes over TCP: the script checks that PROGRAM
# succeeds and that the link carried traffic. Needs root; exits 77 (ctest:
# skipped) with the reason where namespaces cannot be made.
set -u
MPIRUN=$1
shift
skip() { echo "two_nodes: SKIPPED: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces)"
for t in ip unshare mount hostname; do
    command -v $t >/dev/null 2>&1 || skip "needs '$t' (iproute2, util-linux)"
done
case "$("$MPIRUN" --version 2>&1)" in
    *"Open MPI"*|*OpenRTE*) ;;
    *) skip "$MPIRUN is not Open MPI's (the agent script is Open MPI's)" ;;
esac

id=$$
na=mc$id-a nb=mc$id-b
net=10.$((200 + id % 50)).$(((id / 50) % 250))
dir=$(mktemp -d /tmp/mc-two-nodes.XXXXXX)
cleanup() {
    ip netns del $na 2>/dev/null
    ip netns del $nb 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT INT TERM
ip netns add $na 2>"$dir/err" ||
    skip "cannot make a network namespace: $(cat "$dir/err")"
ip netns add $nb || exit 1
ip link add va$id netns $na type veth peer name vb$id netns $nb || exit 1
ip -n $na addr add $net.1/24 dev va$id
ip -n $nb addr add $net.2/24 dev vb$id
for n in $na $nb; do
    ip -n $n link set lo up
done
ip -n $na link set va$id up
ip -n $nb link set vb$id up

# enter NODE (a or b) with its hostname and a /dev/shm of its own, then run
# the shell command "$*" there (what ssh does with its arguments)
cat >"$dir/enter" <<EOS
#!/bin/sh
node=\$1; shift
exec ip netns exec mc$id-\$node unshare --uts --mount sh -c '
    hostname mc-node-'\$node' && mount -t tmpfs -o size=4g tmpfs /dev/shm &&
    exec sh -c "\$0"' "\$*"
EOS
# Open MPI calls the agent as: agent HOST COMMAND...
cat >"$dir/agent" <<EOS
#!/bin/sh
case "\$1" in
    $net.1|mc-node-a) node=a ;;
    $net.2|mc-node-b) node=b ;;
    *) echo "agent: unknown host '\$1'" >&2; exit 1 ;;
esac
shift
exec "$dir/enter" \$node "\$@"
EOS
chmod +x "$dir/enter" "$dir/agent"

tx() { ip netns exec $na cat /sys/class/net/va$id/statistics/tx_bytes; }
before=$(tx)
q() { printf "'%s' " "$@"; }
"$dir/enter" a "$(q "$MPIRUN" --allow-run-as-root \
    --host $net.1:2,$net.2:2 -n 4 \
    --mca plm_rsh_agent "$dir/agent" --mca btl self,vader,tcp \
    --mca btl_tcp_if_include $net.0/24 --mca oob_tcp_if_include $net.0/24 \
    "$@")"
rc=$?
after=$(tx)
echo "two_nodes: the link between the nodes carried $((after - before)) bytes"
[ $rc = 0 ] || { echo "two_nodes: FAILED: mpirun exited with $rc"; exit 1; }
[ $((after - before)) -gt 100000 ] ||
    { echo "two_nodes: FAILED: hardly any traffic between the nodes"; exit 1; }
echo "two_nodes: passed"
