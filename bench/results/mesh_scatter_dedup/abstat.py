import collections, sys, statistics as s
d=collections.defaultdict(list)
for fn in sys.argv[1:]:
  for l in open(fn):
    f=l.split()
    v,r,case,order,strat,pos,thr=f[:7]
    d[(case,strat,pos,thr,v)].append(float(f[8]))
keys=sorted(set(k[:4] for k in d))
print("case strategy pos thr | before: min (median) of the runs' min ns/e | after | after/before of min (median)")
for k in keys:
    b=d[k+('before',)]; a=d[k+('after',)]
    print(' '.join(k), '| %.2f (%.2f) | %.2f (%.2f) | %.3f (%.3f) n=%d' % (min(b), s.median(b), min(a), s.median(a), min(a)/min(b), s.median(a)/s.median(b), len(a)))
