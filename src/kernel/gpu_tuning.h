/*
 * kernel/gpu_tuning.h - compile-time tuning parameters of the device
 * (OpenMP target offload) element loops, seed 000 section 4.3: exhaustive
 * search over compile-time options.  Every parameter has a global default,
 * overridable with -D, and a per-case value FEINT_GPU_<PARAM>_<ELEMENT>_<PROBLEM>
 * (ELEMENT TET4/PRISM6/HEX8, PROBLEM POISSON/CONVDIFF/ELASTICITY/POISSON_KAPPA/
 * ELASTICITY_QP) that falls back to the
 * global one.  gpu.mk passes the per-case values of gpu/tuning/<GPU>.mk,
 * written by tools/gpu-tune.sh from measurements.
 *
 *  FEINT_GPU_TEAM_SIZE    threads per team (thread_limit; one element per thread)
 *  FEINT_GPU_NUM_TEAMS    teams; 0 = enough for one element per thread
 *  FEINT_GPU_STAGE_INPUT  1: natural-layout inputs are first read coalesced
 *                         into team-shared memory (Fig. 1 of seed 000), then
 *                         each thread takes its element from there; 0: each
 *                         thread reads its element from global memory.
 *                         Blocked-layout input is coalesced already and never
 *                         staged.
 *  FEINT_GPU_SHARED       placement of one array of the element computation in
 *                         team-shared memory: only 0 (none) is implemented,
 *                         see driver_device.h for why.
 */
#ifndef FEINT_KERNEL_GPU_TUNING_H
#define FEINT_KERNEL_GPU_TUNING_H

#include <stddef.h>

#ifndef FEINT_GPU_TEAM_SIZE
#define FEINT_GPU_TEAM_SIZE 128
#endif
#ifndef FEINT_GPU_NUM_TEAMS
#define FEINT_GPU_NUM_TEAMS 0
#endif
#ifndef FEINT_GPU_STAGE_INPUT
#define FEINT_GPU_STAGE_INPUT 0
#endif
#ifndef FEINT_GPU_SHARED
#define FEINT_GPU_SHARED 0
#endif


#ifndef FEINT_GPU_TEAM_SIZE_TET4_POISSON
#define FEINT_GPU_TEAM_SIZE_TET4_POISSON FEINT_GPU_TEAM_SIZE
#endif
#ifndef FEINT_GPU_TEAM_SIZE_TET4_CONVDIFF
#define FEINT_GPU_TEAM_SIZE_TET4_CONVDIFF FEINT_GPU_TEAM_SIZE
#endif
#ifndef FEINT_GPU_TEAM_SIZE_PRISM6_POISSON
#define FEINT_GPU_TEAM_SIZE_PRISM6_POISSON FEINT_GPU_TEAM_SIZE
#endif
#ifndef FEINT_GPU_TEAM_SIZE_PRISM6_CONVDIFF
#define FEINT_GPU_TEAM_SIZE_PRISM6_CONVDIFF FEINT_GPU_TEAM_SIZE
#endif
#ifndef FEINT_GPU_TEAM_SIZE_HEX8_POISSON
#define FEINT_GPU_TEAM_SIZE_HEX8_POISSON FEINT_GPU_TEAM_SIZE
#endif
#ifndef FEINT_GPU_TEAM_SIZE_HEX8_CONVDIFF
#define FEINT_GPU_TEAM_SIZE_HEX8_CONVDIFF FEINT_GPU_TEAM_SIZE
#endif
#ifndef FEINT_GPU_TEAM_SIZE_TET4_ELASTICITY
#define FEINT_GPU_TEAM_SIZE_TET4_ELASTICITY FEINT_GPU_TEAM_SIZE
#endif
#ifndef FEINT_GPU_TEAM_SIZE_PRISM6_ELASTICITY
#define FEINT_GPU_TEAM_SIZE_PRISM6_ELASTICITY FEINT_GPU_TEAM_SIZE
#endif
#ifndef FEINT_GPU_TEAM_SIZE_HEX8_ELASTICITY
#define FEINT_GPU_TEAM_SIZE_HEX8_ELASTICITY FEINT_GPU_TEAM_SIZE
#endif
#ifndef FEINT_GPU_TEAM_SIZE_TET4_POISSON_KAPPA
#define FEINT_GPU_TEAM_SIZE_TET4_POISSON_KAPPA FEINT_GPU_TEAM_SIZE
#endif
#ifndef FEINT_GPU_TEAM_SIZE_PRISM6_POISSON_KAPPA
#define FEINT_GPU_TEAM_SIZE_PRISM6_POISSON_KAPPA FEINT_GPU_TEAM_SIZE
#endif
#ifndef FEINT_GPU_TEAM_SIZE_HEX8_POISSON_KAPPA
#define FEINT_GPU_TEAM_SIZE_HEX8_POISSON_KAPPA FEINT_GPU_TEAM_SIZE
#endif
#ifndef FEINT_GPU_TEAM_SIZE_TET4_ELASTICITY_QP
#define FEINT_GPU_TEAM_SIZE_TET4_ELASTICITY_QP FEINT_GPU_TEAM_SIZE
#endif
#ifndef FEINT_GPU_TEAM_SIZE_PRISM6_ELASTICITY_QP
#define FEINT_GPU_TEAM_SIZE_PRISM6_ELASTICITY_QP FEINT_GPU_TEAM_SIZE
#endif
#ifndef FEINT_GPU_TEAM_SIZE_HEX8_ELASTICITY_QP
#define FEINT_GPU_TEAM_SIZE_HEX8_ELASTICITY_QP FEINT_GPU_TEAM_SIZE
#endif

#ifndef FEINT_GPU_NUM_TEAMS_TET4_POISSON
#define FEINT_GPU_NUM_TEAMS_TET4_POISSON FEINT_GPU_NUM_TEAMS
#endif
#ifndef FEINT_GPU_NUM_TEAMS_TET4_CONVDIFF
#define FEINT_GPU_NUM_TEAMS_TET4_CONVDIFF FEINT_GPU_NUM_TEAMS
#endif
#ifndef FEINT_GPU_NUM_TEAMS_PRISM6_POISSON
#define FEINT_GPU_NUM_TEAMS_PRISM6_POISSON FEINT_GPU_NUM_TEAMS
#endif
#ifndef FEINT_GPU_NUM_TEAMS_PRISM6_CONVDIFF
#define FEINT_GPU_NUM_TEAMS_PRISM6_CONVDIFF FEINT_GPU_NUM_TEAMS
#endif
#ifndef FEINT_GPU_NUM_TEAMS_HEX8_POISSON
#define FEINT_GPU_NUM_TEAMS_HEX8_POISSON FEINT_GPU_NUM_TEAMS
#endif
#ifndef FEINT_GPU_NUM_TEAMS_HEX8_CONVDIFF
#define FEINT_GPU_NUM_TEAMS_HEX8_CONVDIFF FEINT_GPU_NUM_TEAMS
#endif
#ifndef FEINT_GPU_NUM_TEAMS_TET4_ELASTICITY
#define FEINT_GPU_NUM_TEAMS_TET4_ELASTICITY FEINT_GPU_NUM_TEAMS
#endif
#ifndef FEINT_GPU_NUM_TEAMS_PRISM6_ELASTICITY
#define FEINT_GPU_NUM_TEAMS_PRISM6_ELASTICITY FEINT_GPU_NUM_TEAMS
#endif
#ifndef FEINT_GPU_NUM_TEAMS_HEX8_ELASTICITY
#define FEINT_GPU_NUM_TEAMS_HEX8_ELASTICITY FEINT_GPU_NUM_TEAMS
#endif
#ifndef FEINT_GPU_NUM_TEAMS_TET4_POISSON_KAPPA
#define FEINT_GPU_NUM_TEAMS_TET4_POISSON_KAPPA FEINT_GPU_NUM_TEAMS
#endif
#ifndef FEINT_GPU_NUM_TEAMS_PRISM6_POISSON_KAPPA
#define FEINT_GPU_NUM_TEAMS_PRISM6_POISSON_KAPPA FEINT_GPU_NUM_TEAMS
#endif
#ifndef FEINT_GPU_NUM_TEAMS_HEX8_POISSON_KAPPA
#define FEINT_GPU_NUM_TEAMS_HEX8_POISSON_KAPPA FEINT_GPU_NUM_TEAMS
#endif
#ifndef FEINT_GPU_NUM_TEAMS_TET4_ELASTICITY_QP
#define FEINT_GPU_NUM_TEAMS_TET4_ELASTICITY_QP FEINT_GPU_NUM_TEAMS
#endif
#ifndef FEINT_GPU_NUM_TEAMS_PRISM6_ELASTICITY_QP
#define FEINT_GPU_NUM_TEAMS_PRISM6_ELASTICITY_QP FEINT_GPU_NUM_TEAMS
#endif
#ifndef FEINT_GPU_NUM_TEAMS_HEX8_ELASTICITY_QP
#define FEINT_GPU_NUM_TEAMS_HEX8_ELASTICITY_QP FEINT_GPU_NUM_TEAMS
#endif

#ifndef FEINT_GPU_STAGE_INPUT_TET4_POISSON
#define FEINT_GPU_STAGE_INPUT_TET4_POISSON FEINT_GPU_STAGE_INPUT
#endif
#ifndef FEINT_GPU_STAGE_INPUT_TET4_CONVDIFF
#define FEINT_GPU_STAGE_INPUT_TET4_CONVDIFF FEINT_GPU_STAGE_INPUT
#endif
#ifndef FEINT_GPU_STAGE_INPUT_PRISM6_POISSON
#define FEINT_GPU_STAGE_INPUT_PRISM6_POISSON FEINT_GPU_STAGE_INPUT
#endif
#ifndef FEINT_GPU_STAGE_INPUT_PRISM6_CONVDIFF
#define FEINT_GPU_STAGE_INPUT_PRISM6_CONVDIFF FEINT_GPU_STAGE_INPUT
#endif
#ifndef FEINT_GPU_STAGE_INPUT_HEX8_POISSON
#define FEINT_GPU_STAGE_INPUT_HEX8_POISSON FEINT_GPU_STAGE_INPUT
#endif
#ifndef FEINT_GPU_STAGE_INPUT_HEX8_CONVDIFF
#define FEINT_GPU_STAGE_INPUT_HEX8_CONVDIFF FEINT_GPU_STAGE_INPUT
#endif
#ifndef FEINT_GPU_STAGE_INPUT_TET4_ELASTICITY
#define FEINT_GPU_STAGE_INPUT_TET4_ELASTICITY FEINT_GPU_STAGE_INPUT
#endif
#ifndef FEINT_GPU_STAGE_INPUT_PRISM6_ELASTICITY
#define FEINT_GPU_STAGE_INPUT_PRISM6_ELASTICITY FEINT_GPU_STAGE_INPUT
#endif
#ifndef FEINT_GPU_STAGE_INPUT_HEX8_ELASTICITY
#define FEINT_GPU_STAGE_INPUT_HEX8_ELASTICITY FEINT_GPU_STAGE_INPUT
#endif
#ifndef FEINT_GPU_STAGE_INPUT_TET4_POISSON_KAPPA
#define FEINT_GPU_STAGE_INPUT_TET4_POISSON_KAPPA FEINT_GPU_STAGE_INPUT
#endif
#ifndef FEINT_GPU_STAGE_INPUT_PRISM6_POISSON_KAPPA
#define FEINT_GPU_STAGE_INPUT_PRISM6_POISSON_KAPPA FEINT_GPU_STAGE_INPUT
#endif
#ifndef FEINT_GPU_STAGE_INPUT_HEX8_POISSON_KAPPA
#define FEINT_GPU_STAGE_INPUT_HEX8_POISSON_KAPPA FEINT_GPU_STAGE_INPUT
#endif
#ifndef FEINT_GPU_STAGE_INPUT_TET4_ELASTICITY_QP
#define FEINT_GPU_STAGE_INPUT_TET4_ELASTICITY_QP FEINT_GPU_STAGE_INPUT
#endif
#ifndef FEINT_GPU_STAGE_INPUT_PRISM6_ELASTICITY_QP
#define FEINT_GPU_STAGE_INPUT_PRISM6_ELASTICITY_QP FEINT_GPU_STAGE_INPUT
#endif
#ifndef FEINT_GPU_STAGE_INPUT_HEX8_ELASTICITY_QP
#define FEINT_GPU_STAGE_INPUT_HEX8_ELASTICITY_QP FEINT_GPU_STAGE_INPUT
#endif

#if FEINT_GPU_SHARED != 0
#error "FEINT_GPU_SHARED: only 0 is implemented (see src/kernel/driver_device.h)"
#endif

/* Input doubles per element (geometry + coefficients, Table 3 of seed 000):
 * the size of one thread's part of the staging buffer. */
#define FEINT_GPU_IN_SIZE_TET4_POISSON (12 + 4)
#define FEINT_GPU_IN_SIZE_TET4_CONVDIFF (12 + 20)
#define FEINT_GPU_IN_SIZE_PRISM6_POISSON (18 + 6)
#define FEINT_GPU_IN_SIZE_PRISM6_CONVDIFF (18 + 20)
#define FEINT_GPU_IN_SIZE_HEX8_POISSON (24 + 8)
#define FEINT_GPU_IN_SIZE_HEX8_CONVDIFF (24 + 20)
#define FEINT_GPU_IN_SIZE_TET4_ELASTICITY (12 + 2 + 3 * 4)
#define FEINT_GPU_IN_SIZE_PRISM6_ELASTICITY (18 + 2 + 3 * 6)
#define FEINT_GPU_IN_SIZE_HEX8_ELASTICITY (24 + 2 + 3 * 8)
#define FEINT_GPU_IN_SIZE_TET4_POISSON_KAPPA (12 + 2 * 4)
#define FEINT_GPU_IN_SIZE_PRISM6_POISSON_KAPPA (18 + 2 * 6)
#define FEINT_GPU_IN_SIZE_HEX8_POISSON_KAPPA (24 + 2 * 8)
#define FEINT_GPU_IN_SIZE_TET4_ELASTICITY_QP (12 + 5 * 4)
#define FEINT_GPU_IN_SIZE_PRISM6_ELASTICITY_QP (18 + 5 * 6)
#define FEINT_GPU_IN_SIZE_HEX8_ELASTICITY_QP (24 + 5 * 8)

/* Teams for a device loop of cnt iterations, one per thread of team_size
 * threads: ceil(cnt / team_size), clamped to [1, 2^30] (num_teams takes an
 * int; an empty loop still launches one team, and beyond 2^30 teams the
 * `distribute` gives a team several iterations).  With host_fallback the
 * teams are host threads: fallback_teams of them (a few, so as not to
 * oversubscribe the cores).  The one home of this computation for the
 * device loops. */
static inline int feint_gpu_num_teams(size_t cnt, size_t team_size, int host_fallback,
                                      int fallback_teams) {
  if (host_fallback) return fallback_teams;
  const size_t max_teams = (size_t)1 << 30;
  const size_t nt = cnt / team_size + (cnt % team_size != 0);
  return nt < 1 ? 1 : nt > max_teams ? (int)max_teams : (int)nt;
}

#endif /* FEINT_KERNEL_GPU_TUNING_H */
