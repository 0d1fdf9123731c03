"""Two bands.csv files of yee bands hold the same k points and modes: frequencies to 1e-9
relative (harminv of series that differ by rounding), at least one mode per k point.

usage: same_bands.py A.csv B.csv
"""
import csv
import sys


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def main(a_path, b_path):
    a, b = rows(a_path), rows(b_path)
    if not a or len(a) != len(b):
        print("FAIL %s has %d modes, %s %d" % (a_path, len(a), b_path, len(b)))
        return 1
    worst = 0.0
    for ra, rb in zip(a, b):
        if ra["k_index"] != rb["k_index"] or ra["band"] != rb["band"]:
            print("FAIL row k %s band %s against k %s band %s"
                  % (ra["k_index"], ra["band"], rb["k_index"], rb["band"]))
            return 1
        fa, fb = float(ra["freq_c_um"]), float(rb["freq_c_um"])
        worst = max(worst, abs(fa - fb) / fa)
    ok = worst <= 1e-9
    print("%s %d modes, largest relative frequency difference %.3g"
          % ("PASS" if ok else "FAIL", len(a), worst))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
