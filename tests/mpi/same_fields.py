"""Compare the field data of two yee runs bit for bit: every dataset (snapshots, probes, DFT
fields) must have the same shape and identical values (an FDTD step has no reductions, so any
difference between a 1-rank and an N-rank run is a halo or decomposition bug). Flux spectra
(/flux/<monitor>/flux, normalized) are sums over the ranks' nodes, in another order with more
ranks: they must agree to 1e-12 relative. So are a mode monitor's amplitudes, powers and
S-parameters (/modes/<monitor>/mode<k>/...): 1e-12 of the largest amplitude or S-parameter of
that monitor (a backward amplitude next to nothing is rounding of the forward one's size).

usage: same_fields.py REF.h5 OTHER.h5 LABEL
(also a module: compare() for tests/mpi/ranks_agree.py)
"""
import sys

import h5py
import numpy as np



def compare(ref_path, other_path, label, every_dataset_nonzero=True):
    """PASS/FAIL lines per dataset; returns (failures, largest |value| of the reference).
    every_dataset_nonzero: a dataset of zeros fails (it would compare nothing); otherwise only
    the whole file must hold a non-zero value (a shortened run's far probes may not yet)."""
    failures = 0
    top = 0.0
    with h5py.File(ref_path, "r") as ref, h5py.File(other_path, "r") as other:
        names = []
        ref.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) else None)
        def monitor_scale(name):
            """Largest |value| of the alpha_* and s_* datasets of name's mode monitor."""
            group = "/".join(name.split("/")[:2])
            top_m = 0.0
            for n in names:
                leaf = n.split("/")[-1]
                if n.startswith(group + "/") and (leaf.startswith("alpha") or
                                                   leaf.startswith("s_")):
                    top_m = max(top_m, float(np.abs(ref[n][...]).max()))
            return top_m
        for name in sorted(names):
            a = ref[name][...]
            b = other[name][...] if name in other else None
            if b is None or a.shape != b.shape:
                print(f"FAIL {label} {name}: missing or shape "
                      f"{None if b is None else b.shape} != {a.shape}")
                failures += 1
                continue
            peak = float(np.abs(a).max()) if a.size and np.issubdtype(a.dtype, np.number) else 0.0
            top = max(top, peak)
            reduced = name.startswith("modes/") and name.split("/")[-1] not in ("frequency",
                                                                                 "neff")
            if reduced or (name.startswith("flux/") and
                           name.split("/")[-1] in ("flux", "normalized")):
                diff = float(np.max(np.abs(a - b))) if a.size else 0.0
                scale = max(peak, monitor_scale(name)) if reduced else peak
                rel = diff / scale if scale > 0 else (0.0 if diff == 0.0 and
                                                      not every_dataset_nonzero else 1.0)
                ok = rel < 1e-12
                print(f"{'PASS' if ok else 'FAIL'} {label} {name} (max rel diff={rel:.2e}, "
                      f"tol=1e-12, max|ref|={peak:.3g})")
                failures += 0 if ok else 1
                continue
            differ = int(np.count_nonzero(a.view(np.uint8) != b.view(np.uint8)))
            # a coordinate of a plane can be exactly 0 (a 2-D run's z)
            ok = differ == 0 and (peak > 0.0 or not every_dataset_nonzero or
                                  name.startswith(("coordinates/", "mesh/")))
            failures += 0 if ok else 1
            print(f"{'PASS' if ok else 'FAIL'} {label} {name} (differing bytes={differ}, "
                  f"tol=0, max|ref|={peak:.3g})")
    return failures, top


if __name__ == "__main__":
    ref_path, other_path, label = sys.argv[1:4]
    nfail, _ = compare(ref_path, other_path, label)
    sys.exit(1 if nfail else 0)
