#!/bin/sh
# Prints the path of a prepared 32-bit PowerPC kernel tree (scripts/kernel/kernel-tree.sh):
#   kernel-tree.sh mpc83xx    mpc83xx_defconfig as shipped (the MPC8313's own)
#   kernel-tree.sh pmac32     pmac32_defconfig trimmed by pmac32-trim.config,
#                             bootable in qemu-system-ppc -M mac99
set -eu
here=$(cd "$(dirname "$0")" && pwd)
flavor=${1:?usage: kernel-tree.sh mpc83xx|pmac32}
case $flavor in
mpc83xx) exec "$here/../kernel/kernel-tree.sh" ppc32/mpc83xx powerpc mpc83xx_defconfig ;;
pmac32) exec "$here/../kernel/kernel-tree.sh" ppc32/pmac32 powerpc pmac32_defconfig \
	"$here/pmac32-trim.config" ;;
*) echo "kernel-tree.sh: unknown flavor '$flavor': mpc83xx or pmac32" >&2; exit 2 ;;
esac
