#!/bin/sh
# Install the Debian packages yee needs to build, test and post-process, if any are missing.
# Idempotent: does nothing (and needs no network) when everything is present. Uses sudo when
# not root. CUDA is not installed here: the CPU build needs no nvcc (see docs/install.md).
set -eu

PKGS="build-essential cmake pkg-config libopenmpi-dev openmpi-bin libhdf5-openmpi-dev \
libconfig-dev libharminv-dev libarpack2-dev libsuitesparse-dev python3 python3-numpy python3-h5py python3-scipy \
python3-matplotlib python3-pytest python3-vtk9 python3-meep mpb clang libclang-rt-14-dev g++ \
libboost-context-dev groff-base debhelper dh-python \
slurmctld slurmd slurm-client slurm-wlm-basic-plugins munge"

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

SUDO=""
if [ "$(id -u)" != "0" ]; then
    command -v sudo >/dev/null 2>&1 || { echo "install-deps: need root or sudo for:$missing" >&2; exit 1; }
    SUDO="sudo"
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
