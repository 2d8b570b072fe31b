#!/bin/bash
# mix.sh binary args... : instruction mix of the 64-byte lines of the hottest outlined loop that got samples
perf record -F 20000 -e cpu-clock -o /tmp/pr/m.data "$@" > /dev/null 2>&1
sym=$(perf report -i /tmp/pr/m.data --stdio --sort sym 2>/dev/null | grep -v '^#' | grep omp_outlined | head -1 | awk '{print $3}')
perf script -i /tmp/pr/m.data -F ip,sym 2>/dev/null | awk -v s="$sym" '$2==s {print $1}' | sort | uniq -c | awk '{print $2}' > /tmp/pr/ips.txt
perf annotate -i /tmp/pr/m.data --stdio -s "$sym" 2>/dev/null | grep -E '^\s+[0-9.]+ :\s+[0-9a-f]+:' | sed -E 's/^\s+[0-9.]+ :\s+([0-9a-f]+):\s+/\1 /' > /tmp/pr/asm.txt
/usr/bin/python3 - <<'PY'
import re, collections
lines = set(int(l, 16) // 64 for l in open('/tmp/pr/ips.txt') if l.strip())
ins = [l.rstrip('\n').split(' ', 1) for l in open('/tmp/pr/asm.txt')]
hot = [(int(a, 16), t.strip()) for a, t in ins if int(a, 16) // 64 in lines]
c = collections.Counter()
for a, t in hot:
    op = t.split()[0]
    args = t[len(op):].strip()
    mem = '(' in args
    if re.match(r'v?fn?m(add|sub)', op): c['fma'] += 1
    elif op in ('vmulpd',): c['mul'] += 1
    elif op in ('vaddpd', 'vsubpd'): c['add/sub'] += 1
    elif op == 'vdivpd': c['div'] += 1
    if mem and re.search(r'%[xy]mm\d+,\s*-?[0-9a-fx]*\(', args) and op.startswith(('vmov', 'movnti')): c['stores'] += 1
    elif op.startswith('vmov') and mem: c['loads'] += 1
    elif op.startswith('v') and mem and not op.startswith('vmov'): c['fp op with memory operand'] += 1
    if op.startswith('vmov') and not mem: c['register moves'] += 1
print('code lines with samples:', len(lines), '=', len(lines) * 64 // 1024, 'KiB; instructions in them:', len(hot))
for k in ('fma', 'mul', 'add/sub', 'div', 'stores', 'loads', 'fp op with memory operand', 'register moves'):
    print(f'  {k}: {c[k]}')
PY
