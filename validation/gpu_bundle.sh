#!/bin/sh
# Run HERE (a Debian 12 machine with apt) before a device check: packs the Debian runtime and
# development files yee builds against (Open MPI, parallel HDF5, libconfig, libharminv, pkgconf
# and their shared-library dependencies) into .gpu/bundle.tgz, about 20 MB. The GPU machine has
# CUDA, CMake and gcc but none of these and no package archive; validation/gpu_check.sh unpacks
# the bundle there and points pkg-config, the MPI wrapper (OPAL_PREFIX) and the loader at it.
# .gpu/ is ignored by git; name it in the device tool's `carry`.
set -eu
cd "$(dirname "$0")/.."
PKGS="libconfig9 libconfig-dev libhdf5-openmpi-103-1 libhdf5-openmpi-dev libopenmpi3 \
libopenmpi-dev openmpi-bin openmpi-common libharminv3 libharminv-dev pkgconf pkgconf-bin \
libpkgconf3 libaec0 libblas3 libbrotli1 libssl3 libcurl4 libevent-core-2.1-7 \
libevent-pthreads-2.1-7 libffi8 libgfortran5 libgmp10 libgnutls30 libgssapi-krb5-2 libhogweed6 \
libhwloc15 libidn2-0 libk5crypto3 libkrb5-3 libkrb5support0 liblapack3 libldap-2.5-0 libnettle8 \
libnghttp2-14 libp11-kit0 libpsl5 libquadmath0 librtmp1 libsasl2-2 libssh2-1 libsz2 libtasn1-6 \
libunistring2 libzstd1 libkeyutils1 libcom-err2 libudev1 zlib1g libltdl7"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debs" "$work/root" .gpu
(cd "$work/debs" && apt-get download $PKGS >/dev/null)
for deb in "$work"/debs/*.deb; do
    dpkg-deb -x "$deb" "$work/root"
done
# static libraries, Fortran modules and documentation are not needed to build or run
find "$work/root" -name '*.a' -delete
rm -rf "$work/root/usr/share/doc" "$work/root/usr/share/man" "$work/root/usr/share/lintian" \
    "$work/root/usr/lib/x86_64-linux-gnu/fortran"
tar czf .gpu/bundle.tgz -C "$work/root" .
echo "gpu_bundle: wrote .gpu/bundle.tgz ($(du -h .gpu/bundle.tgz | cut -f1))"
