/* feint_likwid.h - optional likwid marker regions around bench kernels.
 *
 * Built with -DFEINT_LIKWID (make LIKWID=1, which also adds -DLIKWID_PERFMON
 * and -llikwid) the macros call likwid's marker API, so `likwid-perfctr -m`
 * reports counters per region; otherwise they compile to nothing and cost
 * nothing.  Hardware counters are optional: likwid-perfctr says
 * "Unsupported Processor" on some machines here, and nothing may depend on
 * them.
 *
 *   FEINT_MARKER_INIT            once, before any region (serial code)
 *   FEINT_MARKER_START(name)     name: a string literal, e.g. "qss_geo_linear"
 *   FEINT_MARKER_STOP(name)
 *   FEINT_MARKER_CLOSE           once, at the end
 * In OpenMP code call START/STOP inside the parallel region (likwid counts
 * per thread); INIT and CLOSE outside. */
#ifndef FEINT_LIKWID_H
#define FEINT_LIKWID_H

#ifdef FEINT_LIKWID
#ifndef LIKWID_PERFMON
#define LIKWID_PERFMON
#endif
#include <likwid-marker.h>
#define FEINT_MARKER_INIT LIKWID_MARKER_INIT
#define FEINT_MARKER_START(name) LIKWID_MARKER_START(name)
#define FEINT_MARKER_STOP(name) LIKWID_MARKER_STOP(name)
#define FEINT_MARKER_CLOSE LIKWID_MARKER_CLOSE
#else
#define FEINT_MARKER_INIT ((void)0)
#define FEINT_MARKER_START(name) ((void)0)
#define FEINT_MARKER_STOP(name) ((void)0)
#define FEINT_MARKER_CLOSE ((void)0)
#endif

#endif /* FEINT_LIKWID_H */
