#!/bin/sh
# bench/device_check.sh [--out DIR] [--build DIR] [--quick] [--ranks LIST]
#                       [--mpis openmpi,mpich] [--budget S]
# One command for a machine with many cores (at most 8 minutes on 16):
# manycoll bench at 4, 8, 16 ranks, the drop-in against each installed MPI,
# calibrate and the simulator's prediction beside the measurement; writes
# device_check.md and device_check.json. bench/device_check.py says how.
exec python3 "$(dirname "$0")/device_check.py" "$@"
