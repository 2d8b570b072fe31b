import re,glob,statistics as st
def parse(f):
    d={}
    for line in open(f):
        if not line.startswith('# tet4'): continue
        case=line.split()[1]; kind=line.split()[2]
        body=line.split(':',1)[1]
        for m in re.finditer(r'(\S+) ([\d.]+) \(([\d.]+)\)',body):
            d[(case,kind,m.group(1))]=(float(m.group(2)),float(m.group(3)))
    return d
for b in ['old','new']:
    runs=[parse(f) for f in sorted(glob.glob(b+'_*.txt'))]
    keys=[k for k in runs[0] if 'check' not in k[2] and all(k in r for r in runs)]
    for idx,name in [(0,'min'),(1,'median')]:
        spreads=[max(r[k][idx] for r in runs)/min(r[k][idx] for r in runs) for k in keys]
        print(b,name,'ratios',len(keys),'spread (max/min over 3 runs): median %.3f, max %.3f'%(st.median(spreads),max(spreads)))
