// Parameters as users write them (blind batch 17): a structure passed by value, given field by
// field (`--arg p.n=1000 --arg p.x='float[n]'`, warpsim lays it out as C does), an enum, a double.
//   axpy_struct: p.y[i] = p.a * p.x[i * p.stride] + p.y[i] for i < p.n (pointers, an int, a short,
//                a char and a double in one structure: 32 bytes with its padding).
//   copy_layout: out[i] = in[r * s.ld + c] or in[c * s.ld + r] for the element (r, c) of a
//                s.rows x s.cols matrix, by an enum; `int rows, cols;` declared together.
// Launch: block 256, grid cdiv(p.n, 256) and cdiv(s.rows * s.cols, 256).

struct Axpy {
  const float *x;
  float *y;
  int n;
  short stride;
  char flag;  // unused: padding the structure carries
  double a;
};

struct Shape {
  int rows, cols;
  int ld;
};

enum Layout { ROWS = 0, COLS = 1 };

extern "C" __global__ void axpy_struct(Axpy p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  p.y[i] = p.a * p.x[i * p.stride] + p.y[i];
}

extern "C" __global__ void copy_layout(Shape s, Layout layout, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= s.rows * s.cols) return;
  int r = i / s.cols, c = i % s.cols;
  out[i] = layout == ROWS ? in[r * s.ld + c] : in[c * s.ld + r];
}
