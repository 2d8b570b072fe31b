# gpu/tuning/sm_90.mk - per-case defaults of the device tuning parameters for
# GPU=sm_90 (read by gpu.mk; format written by tools/gpu-tune-pick.sh).
# not tuned yet: no GPU measured.  Values: the paper's starting point
# (seed 000 section 4.3: work groups of 128 threads, one element per thread,
# coalesced reading of natural-layout input through shared memory).
FEINT_GPU_TUNING_DEFS := \
  -DFEINT_GPU_TEAM_SIZE_TET4_POISSON=128 -DFEINT_GPU_STAGE_INPUT_TET4_POISSON=1 \
  -DFEINT_GPU_TEAM_SIZE_TET4_CONVDIFF=128 -DFEINT_GPU_STAGE_INPUT_TET4_CONVDIFF=1 \
  -DFEINT_GPU_TEAM_SIZE_PRISM6_POISSON=128 -DFEINT_GPU_STAGE_INPUT_PRISM6_POISSON=1 \
  -DFEINT_GPU_TEAM_SIZE_PRISM6_CONVDIFF=128 -DFEINT_GPU_STAGE_INPUT_PRISM6_CONVDIFF=1
