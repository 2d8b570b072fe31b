"""summary.py FILE: per version and thread count, each row's min over the rounds
of its min and the median of its medians, and checked/trusted of the minima per round."""
import re, statistics, sys
runs, cur = {}, None
for line in open(sys.argv[1]):
    m = re.match(r"== (\w+) threads (\d+) round (\d+)", line)
    if m:
        cur = {}
        runs.setdefault((m.group(1), int(m.group(2))), []).append(cur)
        continue
    m = re.match(r"(map|search) (trusted|checked)\s+min\s+([\d.]+)\s+median\s+([\d.]+)", line)
    if m and cur is not None:
        cur[m.group(1) + " " + m.group(2)] = (float(m.group(3)), float(m.group(4)))
for (ver, th), rs in sorted(runs.items(), key=lambda k: (k[0][1], k[0][0] != "old")):
    print(f"{ver} {th} thread(s), {len(rs)} rounds")
    for row in ["map trusted", "map checked", "search trusted", "search checked"]:
        mins = [r[row][0] for r in rs]
        meds = [r[row][1] for r in rs]
        print(f"  {row:15s} min {min(mins):6.2f}  median {statistics.median(meds):6.2f}")
    for p in ["map", "search"]:
        rat = [r[p + " checked"][0] / r[p + " trusted"][0] for r in rs]
        print(f"  {p} checked/trusted per round: " + " ".join(f"{x:.2f}" for x in rat))
