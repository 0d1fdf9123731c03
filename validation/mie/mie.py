#!/usr/bin/python3
"""Mie series for a homogeneous sphere in vacuum (validation/mie).

q_sca(x, m) is the scattering efficiency Q_sca = sigma_sca / (pi r^2) of a sphere of real or
complex relative index m and size parameter x = 2 pi r / lambda = k r (Bohren & Huffman 1983,
eqs. 4.53 for a_n, b_n and 4.61 for Q_sca), from scipy's spherical Bessel functions j_n, y_n;
q_ext(x, m) is eq. 4.62; amplitudes(x, m, theta) gives S1, S2 (eq. 4.74) and
diff_cross_section(x, m, k, theta, phi) the differential scattering cross-section of a wave
polarized along x (phi from x) travelling +z, (|S2|^2 cos^2 phi + |S1|^2 sin^2 phi) / k^2
(eq. 3.16 with 4.74 and 4.77). It does not handle coated spheres, absorbing hosts or very large x
(the direct j_n(m x) route loses accuracy for |m| x >> 100; validation uses x < 10).
Run as a script it checks itself (prints PASS|FAIL, exits 1 on FAIL): against the Rayleigh limit,
against an independent implementation (B&H appendix A: downward recurrence of the logarithmic
derivative D_n), and against Q_sca(x = 1, m = 1.5) = 0.2151.
"""
import sys

import numpy as np
from scipy.special import spherical_jn, spherical_yn


def nmax(x):
    """Terms kept: Wiscombe's criterion x + 4 x^(1/3) + 2 (B&H appendix A)."""
    return int(np.ceil(x + 4.0 * x ** (1.0 / 3.0) + 2.0))


def coefficients(x, m):
    """a_n, b_n (n = 1 .. nmax) of B&H eq. 4.53 with psi_n(r) = r j_n(r), xi_n = r h_n^(1)(r)."""
    n = np.arange(1, nmax(x) + 1)
    mx = m * x
    jx, djx = spherical_jn(n, x), spherical_jn(n, x, derivative=True)
    yx, dyx = spherical_yn(n, x), spherical_yn(n, x, derivative=True)
    jm, djm = spherical_jn(n, mx), spherical_jn(n, mx, derivative=True)
    psi_x, dpsi_x = x * jx, jx + x * djx                 # psi'(r) = j_n(r) + r j_n'(r)
    xi_x, dxi_x = x * (jx + 1j * yx), (jx + 1j * yx) + x * (djx + 1j * dyx)
    psi_m, dpsi_m = mx * jm, jm + mx * djm
    a = (m * psi_m * dpsi_x - psi_x * dpsi_m) / (m * psi_m * dxi_x - xi_x * dpsi_m)
    b = (psi_m * dpsi_x - m * psi_x * dpsi_m) / (psi_m * dxi_x - m * xi_x * dpsi_m)
    return n, a, b


def q_sca(x, m):
    """Scattering efficiency (B&H eq. 4.61); x may be an array."""
    def one(xv):
        n, a, b = coefficients(float(xv), m)
        return 2.0 / xv ** 2 * np.sum((2 * n + 1) * (np.abs(a) ** 2 + np.abs(b) ** 2))
    return np.vectorize(one)(x) if np.ndim(x) else one(x)


def q_ext(x, m):
    """Extinction efficiency (B&H eq. 4.62)."""
    def one(xv):
        n, a, b = coefficients(float(xv), m)
        return 2.0 / xv ** 2 * np.sum((2 * n + 1) * np.real(a + b))
    return np.vectorize(one)(x) if np.ndim(x) else one(x)


def amplitudes(x, m, theta):
    """S1(theta), S2(theta) (B&H eq. 4.74) with the angular functions pi_n, tau_n by the upward
    recurrences of B&H eq. 4.47; theta in radians (array)."""
    n, a, b = coefficients(float(x), m)
    mu = np.cos(np.asarray(theta, dtype=float))
    pi_prev, pi_n = np.zeros_like(mu), np.ones_like(mu)   # pi_0, pi_1
    s1 = np.zeros(mu.shape, dtype=complex)
    s2 = np.zeros(mu.shape, dtype=complex)
    for k in n:
        if k > 1:
            pi_prev, pi_n = pi_n, ((2 * k - 1) * mu * pi_n - k * pi_prev) / (k - 1)
        tau_n = k * mu * pi_n - (k + 1) * pi_prev
        c = (2 * k + 1) / (k * (k + 1))
        s1 += c * (a[k - 1] * pi_n + b[k - 1] * tau_n)
        s2 += c * (a[k - 1] * tau_n + b[k - 1] * pi_n)
    return s1, s2


def diff_cross_section(x, m, k, theta, phi):
    """d sigma / d Omega (um^2 / sr for k in 1/um) of an x-polarized wave along +z; theta, phi
    (radians) broadcast together."""
    s1, s2 = amplitudes(x, m, theta)
    return (np.abs(s2) ** 2 * np.cos(phi) ** 2 + np.abs(s1) ** 2 * np.sin(phi) ** 2) / k ** 2


def q_sca_bhmie(x, m):
    """Independent check: B&H appendix A (BHMIE) recurrences, D_n(mx) downward, psi/chi upward."""
    nstop = nmax(x)
    nmx = int(max(nstop, abs(m * x))) + 60
    d = np.zeros(nmx + 1, dtype=complex)
    y = m * x
    for n in range(nmx, 0, -1):
        d[n - 1] = n / y - 1.0 / (d[n] + n / y)
    psi0, psi1 = np.cos(x), np.sin(x)
    chi0, chi1 = -np.sin(x), np.cos(x)
    xi1 = psi1 - 1j * chi1
    q = 0.0
    for n in range(1, nstop + 1):
        psi = (2 * n - 1) * psi1 / x - psi0
        chi = (2 * n - 1) * chi1 / x - chi0
        xi = psi - 1j * chi
        an = ((d[n] / m + n / x) * psi - psi1) / ((d[n] / m + n / x) * xi - xi1)
        bn = ((d[n] * m + n / x) * psi - psi1) / ((d[n] * m + n / x) * xi - xi1)
        q += (2 * n + 1) * (abs(an) ** 2 + abs(bn) ** 2)
        psi0, psi1, chi0, chi1, xi1 = psi1, psi, chi1, chi, xi
    return 2.0 * q / x ** 2


def q_sca_rayleigh(x, m):
    """Small-sphere limit 8/3 x^4 |(m^2 - 1)/(m^2 + 2)|^2 (B&H eq. 5.8)."""
    return 8.0 / 3.0 * x ** 4 * abs((m ** 2 - 1) / (m ** 2 + 2)) ** 2


def selftest():
    checks = []
    for m in (1.5, 2.0, 1.33 + 0.01j):
        x = 0.01
        checks.append(("rayleigh m=%s x=%g" % (m, x),
                       abs(q_sca(x, m) / q_sca_rayleigh(x, m) - 1), 1e-3))
    worst = 0.0
    for m in (1.5, 2.0, 1.33 + 0.1j, 4.0):
        for x in np.linspace(0.1, 10.0, 60):
            worst = max(worst, abs(q_sca(x, m) / q_sca_bhmie(x, m) - 1))
    checks.append(("bhmie recurrence x=0.1-10", worst, 1e-9))
    checks.append(("q_sca(1.0, 1.5) = 0.2151", abs(q_sca(1.0, 1.5) - 0.2151), 5e-5))
    checks.append(("lossless q_ext = q_sca", abs(q_ext(3.0, 2.0) - q_sca(3.0, 2.0)), 1e-10))
    # S1, S2: forward S1(0) = S2(0) (B&H 4.75), and the differential cross-section integrated
    # over the sphere is sigma_sca = Q_sca pi r^2 (k = x for r = 1)
    s1, s2 = amplitudes(3.0, 2.0, np.array([0.0]))
    checks.append(("S1(0) = S2(0)", abs(s1[0] - s2[0]) / abs(s1[0]), 1e-12))
    th = np.linspace(0.0, np.pi, 721)
    ph = np.linspace(0.0, 2 * np.pi, 181)
    t, p = np.meshgrid(th, ph, indexing="ij")
    dcs = diff_cross_section(3.0, 2.0, 3.0, t, p)
    total = np.trapz(np.trapz(dcs * np.sin(t), ph, axis=1), th)
    checks.append(("integral of dsigma/dOmega = sigma_sca", abs(total / (np.pi * q_sca(3.0, 2.0))
                                                               - 1), 1e-4))
    nfail = 0
    for name, err, tol in checks:
        ok = err < tol
        nfail += not ok
        print("%s mie %s (err=%.2e, tol=%.0e)" % ("PASS" if ok else "FAIL", name, err, tol))
    return nfail


if __name__ == "__main__":
    print("Q_sca(x=1.0, m=1.5) = %.6f   Q_ext = %.6f" % (q_sca(1.0, 1.5), q_ext(1.0, 1.5)))
    sys.exit(1 if selftest() else 0)
