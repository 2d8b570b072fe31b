# summary.py ab_raw.txt: per row, old and new min over rounds of the run's min ns/e,
# the median over rounds of the run's median ns/e, and new/old of the minima
import collections, statistics, sys
mins, meds = collections.defaultdict(list), collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 12 or f[1] != "round":
        continue
    key = (f[3], f[4], f[5])
    mins[(f[0],) + key].append(float(f[9]))
    meds[(f[0],) + key].append(float(f[10]))
print("%-16s %-8s %-10s %9s %9s %9s %9s %8s" % ("case", "order", "strategy", "old min", "new min",
                                                 "old med", "new med", "new/old"))
for key in sorted({k[1:] for k in mins}):
    o, n = ("old",) + key, ("new",) + key
    if o not in mins or n not in mins:
        continue
    print("%-16s %-8s %-10s %9.2f %9.2f %9.2f %9.2f %8.3f" % (key + (
        min(mins[o]), min(mins[n]), statistics.median(meds[o]), statistics.median(meds[n]),
        min(mins[n]) / min(mins[o]))))
