# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# vm-images/accel-check.sh tells a working accelerator from one that
# hangs: TCG must boot; KVM's answer is printed (on this build machine qemu
# aborts or the guest hangs, see vm-images/README.md) and must be a clear
# yes (0) or no (1), never "cannot test" once qemu and the image are there.
. "$(dirname "$0")/lib.sh"
require_qemu
vm-images/accel-check.sh tcg 60 "$IMG" || fail "accel-check says TCG does not boot the image"
vm-images/accel-check.sh kvm 10 "$IMG"
rc=$?
[ $rc -le 1 ] || fail "accel-check could not test KVM (exit $rc)"
echo ok
