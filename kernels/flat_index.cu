// Blind batch 34: element-wise kernels over a matrix or tensor as one flat thread index, the shape
// PyTorch-style kernels take: i = blockIdx.x * blockDim.x + threadIdx.x, split into coordinates by
// dividing by sizes the launch gives. nvcc divides by a multiply with a float-estimated inverse
// whose quotient is one short for some threads, and corrects it; each thread's estimate is one
// affine value over a piece of the launch (warpsim.sass.values.split, new in stop 39: before,
// each launch here ran block by block, and past 2**20 blocks was refused).
//   flat_transpose  out = in^T, in rows x cols: element i is row i / cols, column i % cols;
//                   block (256), grid (cdiv(rows*cols,256))
//   bias_rows       y = x + bias broadcast along rows: y[i] = x[i] + bias[i % cols]; block (256),
//                   grid (cdiv(rows*cols,256))
//   nchw_to_nhwc    a [n, c, h, w] tensor to [n, h, w, c]: output element i is channel i % c of pixel
//                   i / c; block (256), grid (cdiv(n*c*h*w,256))
//   im2col          a [c, h, w] image's k x k patches as the columns of a [c k k, (h-k+1) (w-k+1)]
//                   matrix (valid convolution, stride 1); block (256), grid
//                   (cdiv(c*k*k*(h-k+1)*(w-k+1),256))
// Any sizes >= 1 (k <= h, w) whose element count stays below 2**31.

extern "C" __global__ void flat_transpose(int rows, int cols, const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * cols) return;
  int r = i / cols, c = i % cols;
  out[c * rows + r] = in[i];
}

extern "C" __global__ void bias_rows(int rows, int cols, const float* __restrict__ x, const float* __restrict__ bias,
                                     float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * cols) y[i] = x[i] + bias[i % cols];
}

extern "C" __global__ void nchw_to_nhwc(int n, int c, int h, int w, const float* __restrict__ in,
                                        float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * c * h * w) return;
  int ch = i % c, p = i / c;                  // output [n, h, w, c]: channel ch of pixel p
  int x = p % w, y = (p / w) % h, b = p / (w * h);
  out[i] = in[((b * c + ch) * h + y) * w + x];
}

extern "C" __global__ void im2col(int c, int h, int w, int k, const float* __restrict__ img, float* __restrict__ col) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int ho = h - k + 1, wo = w - k + 1;
  if (i >= c * k * k * ho * wo) return;
  int ox = i % wo, t = i / wo;
  int oy = t % ho;
  t /= ho;
  int kx = t % k;
  t /= k;
  int ky = t % k, ch = t / k;
  col[i] = img[(ch * h + oy + ky) * w + ox + kx];
}
