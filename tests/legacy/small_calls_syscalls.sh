#!/bin/sh
# Small BLAS calls that stay on the host BLAS make no system call: PROGRAM
# (small_calls.c) is run under strace, every thread followed, and no system
# call may lie between its two markers.  Skipped (77) where strace cannot
# trace.
#
#   small_calls_syscalls.sh PROGRAM [COUNT]
set -u
prog=$1 count=${2:-1000}
command -v strace > /dev/null 2>&1 || { echo "no strace"; exit 77; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
strace -f -qq -o "$log" true 2> /dev/null || { echo "strace cannot trace here"; exit 77; }
strace -f -qq -o "$log" "$prog" "$count" > /dev/null || { echo "$prog failed"; exit 1; }
calls=$(awk '/close\(-1002\)/ { on = 0 } on { n++; print > "/dev/stderr" } /close\(-1001\)/ { on = 1 }
             END { print n + 0 }' "$log")
if ! grep -q 'close(-1002)' "$log"; then
    echo "the markers are missing from the trace"
    exit 1
fi
echo "system calls during $count rounds of small calls: $calls"
[ "$calls" -eq 0 ]
