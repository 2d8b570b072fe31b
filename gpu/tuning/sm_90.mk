# gpu/tuning/sm_90.mk - per-case defaults of the device tuning parameters for
# GPU=sm_90 (read by gpu.mk; format written by tools/gpu-tune-pick.sh).
# not tuned yet: no GPU measured.  Values: one element per thread and
# coalesced reading of natural-layout input through shared memory, as in
# seed 000 (sections 4.2-4.3), with teams of 128 threads (the paper used
# work groups of 64 on Kepler; 128 is the usual starting point on Ampere and
# Hopper).  Its replacement comes from a tuning run: `make GPU=sm_XX gpu-tune`
# here, then the bundle's tune-run.sh on the GPU (tools/gpu-tune.sh).
FEINT_GPU_TUNING_DEFS := \
  -DFEINT_GPU_TEAM_SIZE_TET4_POISSON=128 -DFEINT_GPU_STAGE_INPUT_TET4_POISSON=1 \
  -DFEINT_GPU_TEAM_SIZE_TET4_CONVDIFF=128 -DFEINT_GPU_STAGE_INPUT_TET4_CONVDIFF=1 \
  -DFEINT_GPU_TEAM_SIZE_PRISM6_POISSON=128 -DFEINT_GPU_STAGE_INPUT_PRISM6_POISSON=1 \
  -DFEINT_GPU_TEAM_SIZE_PRISM6_CONVDIFF=128 -DFEINT_GPU_STAGE_INPUT_PRISM6_CONVDIFF=1
