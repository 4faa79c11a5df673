// Switches nvcc compiles to jump tables (blind batch 16): `LDC R6, c[0x2][R0+0xc]` reads a
// function-relative pc from constant bank 2 (the cubin's `.nv.constant2.<kernel>`) and `BRX R6`
// jumps there. nvcc emits one for a switch on a parameter, on the warp index and on a flat index
// divided by a parameter; a switch on the lane or the block index it compiles to branches.
//   act:     y from x[i] by the case `mode` picks (an activation's mode): y[i], y[2 i], y[n - 1 - i],
//            y[i + 1], or no store (the default).
//   in_loop: s over j < k of x[j n + i], x[i k + j], x[(j n + i) / 2] or x[j], by `mode`: nvcc
//            takes the switch out of the loop, a loop per case.
//   by_warp: warp w of a block takes case w: loads x[i], x[2 i], x[i + 5], x[n - 1 - i], x[3 i] or
//            none, stores y[i], y[n + 4 i] or y[5 n + i + 9] (regions of their own: no two threads
//            store one element).
//   by_step: the same cases by (i / step) % 7, which the block index decides (counted block by block).
// Launch: block 256, grid cdiv(n, 256).

extern "C" __global__ void act(int n, int mode, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  switch (mode) {
    case 0: y[i] = v; break;
    case 1: y[i] = v > 0.f ? v : 0.f; break;
    case 2: y[2 * i] = v * 0.5f; break;
    case 3: y[i] = v * v; break;
    case 4: y[n - 1 - i] = v; break;
    case 5: y[i] = -v; break;
    case 6: y[i + 1] = v + 1.f; break;
    default: break;
  }
}

extern "C" __global__ void in_loop(int n, int k, int mode, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.f;
  for (int j = 0; j < k; ++j) {
    switch (mode) {
      case 0: s += x[j * n + i]; break;
      case 1: s += x[i * k + j]; break;
      case 2: s -= x[j]; break;
      case 3: s += x[(j * n + i) / 2]; break;
      case 4: s += 1.f; break;
      case 5: s += x[i]; break;
    }
  }
  y[i] = s;
}

extern "C" __global__ void by_warp(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  switch (threadIdx.x >> 5) {
    case 0: y[i] = x[i]; break;
    case 1: y[i] = x[2 * i]; break;
    case 2: y[i] = x[i + 5]; break;
    case 3: y[n + 4 * i] = 1.f; break;
    case 4: y[i] = 2.f; break;
    case 5: y[i] = x[n - 1 - i]; break;
    case 6: y[5 * n + i + 9] = x[3 * i]; break;
    default: y[i] = -1.f; break;
  }
}

extern "C" __global__ void by_step(int n, int step, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  switch ((i / step) % 7) {
    case 0: y[i] = x[i]; break;
    case 1: y[i] = x[2 * i]; break;
    case 2: y[i] = x[i + 5]; break;
    case 3: y[n + 4 * i] = 1.f; break;
    case 4: y[i] = 2.f; break;
    case 5: y[i] = x[n - 1 - i]; break;
    case 6: y[5 * n + i + 9] = x[3 * i]; break;
  }
}
