// Hand-written row kernels for the floor of the three row workloads
// (softmax, rmsnorm_silu, layernorm_gelu on 4096 x 1024 f32), with the
// numerics of Inductor's Triton kernels (and of our lowering): exp as
// ex2.approx.f32 of x * log2(e), f32 division as div.full.f32, libdevice's
// erff and rsqrtf. Compiled on the GPU machine by NVRTC through CuPy
// (bench/row_kernel_floor.py names the instances); `nvcc -arch=sm_90
// -cubin -DFLOOR_INSTANTIATE` compiles the same instances for ptxas -v.
//
// Four memory schemes, each with a load hint (LD: 0 plain ld.global, 1
// ld.global.nc.L1::no_allocate, 2 ld.global.nc) and a store hint (ST: 0
// plain, 1 st.global.cs):
//   k_warp  one row per warp, 8 16-byte loads per lane issued before use;
//   k_block one row per block of T threads (256 / T 16-byte loads each);
//   k_group R rows per block, G threads a row (our lowering's mapping for
//           softmax is G = 64, R = 2);
//   k_tma   one row per warp through 1-D bulk async copies (cp.async.bulk,
//           the copy engine) into S shared-memory stages per warp, each
//           completing on its own mbarrier; a persistent grid.
// OP: 0 softmax, 1 rmsnorm_silu, 2 layernorm_gelu, 3 read only (a row sum,
// one float a row written), 4 copy.

#define ROW 1024
#define ROW4 (ROW / 4)

__device__ __forceinline__ float4 ld4(const float4 *p, int hint) {
  float4 v;
  if (hint == 1)
    asm volatile("ld.global.nc.L1::no_allocate.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
  else if (hint == 2)
    asm volatile("ld.global.nc.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
  else
    asm volatile("ld.global.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
  return v;
}

__device__ __forceinline__ void st4(float4 *p, float4 v, int hint) {
  if (hint)
    asm volatile("st.global.cs.v4.f32 [%0], {%1,%2,%3,%4};" ::"l"(p),
                 "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w)
                 : "memory");
  else
    asm volatile("st.global.v4.f32 [%0], {%1,%2,%3,%4};" ::"l"(p), "f"(v.x),
                 "f"(v.y), "f"(v.z), "f"(v.w)
                 : "memory");
}

__device__ __forceinline__ float fexp(float x) {
  float y;
  asm("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x * 1.4426950408889634f));
  return y;
}

__device__ __forceinline__ float fdiv(float a, float b) {
  float y;
  asm("div.full.f32 %0, %1, %2;" : "=f"(y) : "f"(a), "f"(b));
  return y;
}

// Reduction over a row's group of G threads (a warp, or a block of G).
template <int G, bool MAX> __device__ __forceinline__ float
group_reduce(float x, float *scratch) {
  // scratch: the group's own G / 32 words (groups of a block side by side).
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    float y = __shfl_xor_sync(0xffffffffu, x, o);
    x = MAX ? fmaxf(x, y) : x + y;
  }
  if (G > 32) {
    int warp = (threadIdx.x % G) >> 5;
    __syncthreads();  // scratch free from the previous reduction
    if ((threadIdx.x & 31) == 0)
      scratch[warp] = x;
    __syncthreads();
    x = scratch[0];
#pragma unroll
    for (int w = 1; w < G / 32; ++w)
      x = MAX ? fmaxf(x, scratch[w]) : x + scratch[w];
  }
  return x;
}

#define FOR_K _Pragma("unroll") for (int k = 0; k < K; ++k)
#define ELEMS(v, body)                                                         \
  {                                                                            \
    float *e_ = reinterpret_cast<float *>(&(v));                               \
    _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) {                         \
      float &x = e_[i_];                                                       \
      body;                                                                    \
    }                                                                          \
  }

// The row's math on the K 16-byte vectors v[k] = row4[c + G * k] that this
// thread holds; `first` is the group's thread that writes per-row scalars.
template <int OP, int G, int K, int ST>
__device__ __forceinline__ void row_math(float4 (&v)[K], int c, int row,
                                         float4 *out, float *stat0,
                                         float *stat1, const float4 *w,
                                         const float4 *b, bool first,
                                         float *scratch) {
  float4 *o = out + (size_t)row * ROW4 + c;
  if (OP == 0) {  // softmax
    float m = __int_as_float(0xff800000);
    FOR_K ELEMS(v[k], m = fmaxf(m, x));
    m = group_reduce<G, true>(m, scratch);
    float s = 0.f;
    FOR_K ELEMS(v[k], { x = fexp(x - m); s += x; });
    s = group_reduce<G, false>(s, scratch);
    FOR_K {
      ELEMS(v[k], x = fdiv(x, s));
      st4(o + G * k, v[k], ST);
    }
  } else if (OP == 1) {  // rmsnorm_silu
    float s = 0.f;
    FOR_K ELEMS(v[k], s += x * x);
    s = group_reduce<G, false>(s, scratch);
    float r = rsqrtf(fdiv(s, 1024.f) + 1e-6f);
    FOR_K {
      float4 wk = __ldg(w + c + G * k);
      float *we = reinterpret_cast<float *>(&wk);
      float *e = reinterpret_cast<float *>(&v[k]);
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        float y = e[i] * r * we[i];
        e[i] = fdiv(y, fexp(-y) + 1.f) * e[i];
      }
      st4(o + G * k, v[k], ST);
    }
  } else if (OP == 2) {  // layernorm_gelu
    float s = 0.f;
    FOR_K ELEMS(v[k], s += x);
    float mean = fdiv(group_reduce<G, false>(s, scratch), 1024.f);
    float q = 0.f;
    FOR_K ELEMS(v[k], { float d = x - mean; q += d * d; });
    float var = fdiv(group_reduce<G, false>(q, scratch), 1024.f);
    float r = rsqrtf(var + 1e-5f);
    if (first) {
      stat0[row] = mean;
      stat1[row] = r;
    }
    FOR_K {
      float4 wk = __ldg(w + c + G * k), bk = __ldg(b + c + G * k);
      float *we = reinterpret_cast<float *>(&wk);
      float *be = reinterpret_cast<float *>(&bk);
      float *e = reinterpret_cast<float *>(&v[k]);
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        float y = (e[i] - mean) * r * we[i] + be[i];
        e[i] = y * 0.5f * (erff(y * 0.70710678118654752f) + 1.f);
      }
      st4(o + G * k, v[k], ST);
    }
  } else if (OP == 3) {  // read only
    float s = 0.f;
    FOR_K ELEMS(v[k], s += x);
    s = group_reduce<G, false>(s, scratch);
    if (first)
      stat0[row] = s;
  } else {  // copy
    FOR_K st4(o + G * k, v[k], ST);
  }
}

template <int OP, int LD, int ST, int W>
__global__ void __launch_bounds__(32 * W)
    k_warp(const float4 *__restrict__ in, float4 *__restrict__ out,
           float *stat0, float *stat1, const float4 *w, const float4 *b,
           int rows) {
  constexpr int K = ROW4 / 32;
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * W + (threadIdx.x >> 5);
  if (row >= rows)
    return;
  const float4 *p = in + (size_t)row * ROW4 + lane;
  float4 v[K];
  FOR_K v[k] = ld4(p + 32 * k, LD);
  row_math<OP, 32, K, ST>(v, lane, row, out, stat0, stat1, w, b, lane == 0,
                          nullptr);
}

template <int OP, int LD, int ST, int T>
__global__ void __launch_bounds__(T)
    k_block(const float4 *__restrict__ in, float4 *__restrict__ out,
            float *stat0, float *stat1, const float4 *w, const float4 *b,
            int rows) {
  constexpr int K = ROW4 / T;
  __shared__ float scratch[T / 32];
  int row = blockIdx.x;
  const float4 *p = in + (size_t)row * ROW4 + threadIdx.x;
  float4 v[K];
  FOR_K v[k] = ld4(p + T * k, LD);
  row_math<OP, T, K, ST>(v, threadIdx.x, row, out, stat0, stat1, w, b,
                         threadIdx.x == 0, scratch);
}

// R rows per block, G threads (a multiple of 32) per row.
template <int OP, int LD, int ST, int G, int R>
__global__ void __launch_bounds__(G * R)
    k_group(const float4 *__restrict__ in, float4 *__restrict__ out,
            float *stat0, float *stat1, const float4 *w, const float4 *b,
            int rows) {
  constexpr int K = ROW4 / G;
  __shared__ float scratch[G * R / 32];
  int c = threadIdx.x % G, g = threadIdx.x / G;
  int row = blockIdx.x * R + g;
  const float4 *p = in + (size_t)row * ROW4 + c;
  float4 v[K];
  FOR_K v[k] = ld4(p + G * k, LD);
  row_math<OP, G, K, ST>(v, c, row, out, stat0, stat1, w, b, c == 0,
                         scratch + g * (G / 32));
}

__device__ __forceinline__ unsigned smem_addr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void bulk_row(unsigned dst, const void *src,
                                         unsigned bar) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   bar),
               "r"(ROW * 4)
               : "memory");
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "l"(src), "r"(ROW * 4), "r"(bar)
               : "memory");
}

__device__ __forceinline__ void wait_phase(unsigned bar, unsigned phase) {
  unsigned done;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, "
                 "[%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(bar), "r"(phase)
                 : "memory");
  } while (!done);
}

// One row per warp, rows gw, gw + nw, ... (nw = warps in the grid), each
// fetched by the copy engine S rows ahead into the warp's S stages.
template <int OP, int ST, int W, int S>
__global__ void __launch_bounds__(32 * W)
    k_tma(const float4 *__restrict__ in, float4 *__restrict__ out,
          float *stat0, float *stat1, const float4 *w, const float4 *b,
          int rows) {
  constexpr int K = ROW4 / 32;
  extern __shared__ __align__(128) float4 stages[];
  __shared__ __align__(8) unsigned long long bars[W * S];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int gw = blockIdx.x * W + warp, nw = gridDim.x * W;
  float4 *mine = stages + warp * S * ROW4;
  unsigned bar0 = smem_addr(&bars[warp * S]);
  if (lane == 0) {
#pragma unroll
    for (int s = 0; s < S; ++s)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar0 + 8 * s)
                   : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#pragma unroll
    for (int s = 0; s < S; ++s) {
      int r = gw + s * nw;
      if (r < rows)
        bulk_row(smem_addr(mine + s * ROW4), in + (size_t)r * ROW4,
                 bar0 + 8 * s);
    }
  }
  __syncwarp();
  int it = 0;
  for (int row = gw; row < rows; row += nw, ++it) {
    int s = it % S;
    wait_phase(bar0 + 8 * s, (it / S) & 1);
    float4 v[K];
    FOR_K v[k] = mine[s * ROW4 + lane + 32 * k];
    // The stage's reads (generic proxy) before the copy engine's next
    // write into it (async proxy).
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncwarp();
    if (lane == 0 && row + S * nw < rows)
      bulk_row(smem_addr(mine + s * ROW4), in + (size_t)(row + S * nw) * ROW4,
               bar0 + 8 * s);
    row_math<OP, 32, K, ST>(v, lane, row, out, stat0, stat1, w, b, lane == 0,
                            nullptr);
  }
}

#ifdef FLOOR_INSTANTIATE
#include "row_kernel_floor_instances.inc"
#endif
