/*
 * kernel/gpu_tuning.h - compile-time tuning parameters of the device
 * (OpenMP target offload) element loops, seed 000 section 4.3: exhaustive
 * search over compile-time options.  Every parameter has a global default,
 * overridable with -D, and a per-case value FEINT_GPU_<PARAM>_<ELEMENT>_<PROBLEM>
 * (ELEMENT TET4/PRISM6/HEX8, PROBLEM POISSON/CONVDIFF/ELASTICITY) that falls back to the
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

#endif /* FEINT_KERNEL_GPU_TUNING_H */
