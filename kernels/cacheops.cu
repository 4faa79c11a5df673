// Blind batch 27: the cache operators a load or a store may carry. The same three-point stencil,
// y[i] = x[i - 1] + x[i] + x[i + 1], loaded six ways: plainly (LDG.E), and through __ldcg
// (LDG.E.STRONG.GPU), a volatile pointer (LDG.E.STRONG.SYS), __ldcs (LDG.E.EF), __ldlu (LDG.E.LU)
// and ld.global.L1::no_allocate (LDG.E.NA). The exact counts are the same for all six; what L1
// serves is not: a strong load of GPU or system scope and a no-allocate one do not go through L1
// (warpsim.caches.program.NO_L1), the eviction hints are served as plain loads. An acquire load
// (LDG.E.STRONG.GPU then CCTL.IVALL: every line of the SM's L1 invalidated) puts the plain loads'
// hits in a range. Stores through __stcg, __stcs and __stwt (STG.E.STRONG.GPU, .EF, .STRONG.SYS).
// Launch: block (256), grid (cdiv(n,256)). Any n >= 1. The stencils are spelled out one by one:
// warpsim reads a kernel's parameter names from its source, which a macro would hide.

__device__ __forceinline__ float ld_volatile(const float* p) { return *(const volatile float*)p; }

__device__ __forceinline__ float ld_no_allocate(const float* p) {
  float v;
  asm volatile("ld.global.L1::no_allocate.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

extern "C" __global__ void stencil_plain(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) y[i] = x[i - 1] + x[i] + x[i + 1];
}

extern "C" __global__ void stencil_cg(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) y[i] = __ldcg(x + i - 1) + __ldcg(x + i) + __ldcg(x + i + 1);
}

extern "C" __global__ void stencil_volatile(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) y[i] = ld_volatile(x + i - 1) + ld_volatile(x + i) + ld_volatile(x + i + 1);
}

extern "C" __global__ void stencil_cs(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) y[i] = __ldcs(x + i - 1) + __ldcs(x + i) + __ldcs(x + i + 1);
}

extern "C" __global__ void stencil_lu(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) y[i] = __ldlu(x + i - 1) + __ldlu(x + i) + __ldlu(x + i + 1);
}

extern "C" __global__ void stencil_na(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) y[i] = ld_no_allocate(x + i - 1) + ld_no_allocate(x + i) + ld_no_allocate(x + i + 1);
}

// a flag read with acquire semantics (LDG.E.STRONG.GPU, CCTL.IVALL), then the plain stencil
extern "C" __global__ void stencil_acquire(int n, const float* x, const int* flag, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int f;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(f) : "l"(flag));
  if (i > 0 && i < n - 1) y[i] = x[i - 1] + x[i] + x[i + 1] + (float)f;
}

// one value stored three ways: L2 receives every sector whatever the operator
extern "C" __global__ void store_ops(int n, const float* x, float* a, float* b, float* c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    __stcg(a + i, v);
    __stcs(b + i, v);
    __stwt(c + i, v);
  }
}
