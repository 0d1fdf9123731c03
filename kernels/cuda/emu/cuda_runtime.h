/* kernels/cuda/emu/cuda_runtime.h -- the CUDA runtime as the emulated build sees it
 * (-DYEE_CUDA=EMULATE, docs/design.md "The CUDA emulation").
 *
 * The emulated build compiles the kernels/cuda .cu files as host C++ with this header in place of the
 * toolkit's <cuda_runtime.h>. Kernel launches `k<<<grid, block, shmem, stream>>>(args)` are
 * rewritten token for token into `YEE_EMU_LAUNCH(k, grid, block, shmem, stream)(args)` by
 * kernels/cuda/emu/rewrite.cmake (same lines, under #line, so every diagnostic names the .cu).
 *
 * What it provides, and the contract each part keeps:
 *  - the qualifiers (__global__, __device__, __host__, __forceinline__, __restrict__, __shared__)
 *    and dim3/uint3 with threadIdx, blockIdx, blockDim, gridDim;
 *  - launches that run every block and every thread on the calling host thread, blocks in order
 *    and threads x fastest. A block whose first thread reaches __syncthreads, __syncwarp or a warp
 *    shuffle runs cooperatively: each of its threads is a fiber (Boost.Context) and the threads
 *    meet at each barrier (the block) or shuffle (the warp) before any goes on. Launch limits
 *    (1024 threads a block, 1024 x 1024 x 64 per axis, grid 2^31-1 x 65535 x 65535, 48 KiB of
 *    dynamic shared memory) give cudaErrorInvalidConfiguration; a kernel argument that points
 *    outside the memory cudaMalloc gave (also the pointers inside the structs that
 *    kernels/cuda/emu/yee_kernel_args.h describes) is reported and fails the launch;
 *  - device memory from a registry: host memory filled with NaN bytes (0xFF) when allocated, so
 *    a read before a write shows up in the fields; cudaMemcpy and cudaMemset (and their Async forms) check each pointer's
 *    kind (device, pinned host, other host) against the direction and the bounds of its block;
 *  - streams (the legacy default stream 0 orders with blocking streams; cudaStreamNonBlocking
 *    streams do not) and events;
 *  - deferred mode (YEE_CUDA_EMU_DEFER=1): every kernel, asynchronous copy, memset and event
 *    record is queued on its stream and runs only when the host must wait for it (a
 *    synchronize, a blocking copy, an event query or synchronize, a free), honouring stream
 *    order, the default stream's implicit order and cudaStreamWaitEvent, and running no more
 *    than the wait needs. A missing synchronization then reads stale data;
 *  - YEE_CUDA_EMU_STATS=1: at exit, per kernel, launches, blocks and threads launched (stderr).
 * Not emulated: concurrency inside a kernel (threads of a block interleave only at barriers),
 * dynamic shared memory, unified memory, textures, graphs, multiple devices.
 */
#ifndef YEE_CUDA_EMU_RUNTIME_H
#define YEE_CUDA_EMU_RUNTIME_H

#ifndef __cplusplus
#error "kernels/cuda/emu/cuda_runtime.h is for the emulated C++ build of the .cu files"
#endif

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

/* Kernels and device functions are inlined into the emulator's thread loop (launch::range): a
 * call per thread would cost more than the cell update itself. */
#define __global__ inline __attribute__((always_inline))
#define __device__ inline
#define __host__
#define __forceinline__ __attribute__((always_inline))
#define __restrict__ __restrict
/* Blocks run one at a time on one host thread, so a static is one block's shared memory, and the
 * built-in indices below are plain globals. */
#define __shared__ static

struct uint3 {
    unsigned int x, y, z;
};

struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int x_ = 1, unsigned int y_ = 1, unsigned int z_ = 1)
        : x(x_), y(y_), z(z_)
    {
    }
};

extern uint3 threadIdx;
extern uint3 blockIdx;
extern dim3 blockDim;
extern dim3 gridDim;
enum { warpSize = 32 };

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchFailure = 719,
} cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

enum {
    cudaStreamDefault = 0,
    cudaStreamNonBlocking = 1,
    cudaEventDefault = 0,
    cudaEventBlockingSync = 1,
    cudaEventDisableTiming = 2,
};

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int major, minor;
    int multiProcessorCount;
};

/* Every API function takes the caller's file and line as trailing default arguments, so a
 * diagnostic names the line of the .cu that made the call. */
#define YEE_EMU_SITE const char *site_file = __builtin_FILE(), int site_line = __builtin_LINE()

const char *cudaGetErrorString(cudaError_t e);
const char *cudaGetErrorName(cudaError_t e);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);

cudaError_t cudaGetDeviceCount(int *n);
cudaError_t cudaSetDevice(int dev);
cudaError_t cudaGetDevice(int *dev);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int dev);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaDeviceSynchronize(YEE_EMU_SITE);

cudaError_t cudaMalloc(void **p, size_t bytes, YEE_EMU_SITE);
cudaError_t cudaMallocHost(void **p, size_t bytes, YEE_EMU_SITE);
cudaError_t cudaFree(void *p, YEE_EMU_SITE);
cudaError_t cudaFreeHost(void *p, YEE_EMU_SITE);
cudaError_t cudaMemset(void *p, int value, size_t bytes, YEE_EMU_SITE);
cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t s = 0, YEE_EMU_SITE);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                       YEE_EMU_SITE);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t s = 0, YEE_EMU_SITE);

cudaError_t cudaStreamCreate(cudaStream_t *s, YEE_EMU_SITE);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags, YEE_EMU_SITE);
cudaError_t cudaStreamDestroy(cudaStream_t s, YEE_EMU_SITE);
cudaError_t cudaStreamSynchronize(cudaStream_t s, YEE_EMU_SITE);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int flags = 0,
                                YEE_EMU_SITE);

cudaError_t cudaEventCreate(cudaEvent_t *e, YEE_EMU_SITE);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags, YEE_EMU_SITE);
cudaError_t cudaEventDestroy(cudaEvent_t e, YEE_EMU_SITE);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0, YEE_EMU_SITE);
cudaError_t cudaEventSynchronize(cudaEvent_t e, YEE_EMU_SITE);
cudaError_t cudaEventQuery(cudaEvent_t e, YEE_EMU_SITE);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end, YEE_EMU_SITE);

/* ---- device-side built-ins ---- */

/* Blocks of one launch run one after another, and a block's threads interleave only at the
 * synchronization points below, so the atomics are plain read-modify-writes. */
template <class T> inline T yee_emu_atomic_add(T *p, T v)
{
    const T old = *p;
    *p = old + v;
    return old;
}
inline float atomicAdd(float *p, float v) { return yee_emu_atomic_add(p, v); }
inline double atomicAdd(double *p, double v) { return yee_emu_atomic_add(p, v); }
inline int atomicAdd(int *p, int v) { return yee_emu_atomic_add(p, v); }
inline unsigned int atomicAdd(unsigned int *p, unsigned int v) { return yee_emu_atomic_add(p, v); }
inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v)
{
    return yee_emu_atomic_add(p, v);
}
template <class T> inline T yee_emu_atomic_min(T *p, T v)
{
    const T old = *p;
    *p = v < old ? v : old;
    return old;
}
template <class T> inline T yee_emu_atomic_max(T *p, T v)
{
    const T old = *p;
    *p = v > old ? v : old;
    return old;
}
inline int atomicMin(int *p, int v) { return yee_emu_atomic_min(p, v); }
inline unsigned int atomicMin(unsigned int *p, unsigned int v) { return yee_emu_atomic_min(p, v); }
inline unsigned long long atomicMin(unsigned long long *p, unsigned long long v)
{
    return yee_emu_atomic_min(p, v);
}
inline int atomicMax(int *p, int v) { return yee_emu_atomic_max(p, v); }
inline unsigned int atomicMax(unsigned int *p, unsigned int v) { return yee_emu_atomic_max(p, v); }
inline unsigned long long atomicMax(unsigned long long *p, unsigned long long v)
{
    return yee_emu_atomic_max(p, v);
}
template <class T> inline T atomicExch(T *p, T v)
{
    const T old = *p;
    *p = v;
    return old;
}
template <class T> inline T atomicCAS(T *p, T compare, T v)
{
    const T old = *p;
    if (old == compare)
        *p = v;
    return old;
}

namespace yee_emu {

/* Where a call was made (the .cu under #line). */
struct site {
    const char *file;
    int line;
};

/* The synchronization points of a cooperative block (runtime.cpp). */
void sync_block(site at);
/* A warp-wide exchange: every live lane of the calling thread's warp named in mask contributes
 * `value`; returns the value lane `src` contributed (the caller's own when src is out of range). */
uint64_t warp_exchange(unsigned mask, uint64_t value, int src, site at);
/* This thread's lane (its linear index in the block mod 32). */
int lane(void);
/* Ballot: bit l set if lane l's predicate was non-zero. */
unsigned warp_ballot(unsigned mask, int predicate, site at);

template <class T> inline uint64_t to_bits(T v)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value, "shuffle of a type");
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof v);
    return b;
}
template <class T> inline T from_bits(uint64_t b)
{
    T v;
    std::memcpy(&v, &b, sizeof v);
    return v;
}

} // namespace yee_emu

inline void __syncthreads(YEE_EMU_SITE) { yee_emu::sync_block({site_file, site_line}); }
inline void __syncwarp(unsigned mask = 0xffffffffu, YEE_EMU_SITE)
{
    yee_emu::warp_exchange(mask, 0, 0, {site_file, site_line});
}
/* width: the lanes exchange within segments of `width` (a power of two <= 32), as CUDA's. */
template <class T> inline T __shfl_sync(unsigned mask, T v, int src, int width = 32, YEE_EMU_SITE)
{
    const int base = yee_emu::lane() & ~(width - 1);
    return yee_emu::from_bits<T>(yee_emu::warp_exchange(
        mask, yee_emu::to_bits(v), base + (src & (width - 1)), {site_file, site_line}));
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32, YEE_EMU_SITE)
{
    const int l = yee_emu::lane(), seg = l & (width - 1);
    const int src = seg + (int)delta < width ? l + (int)delta : -1;
    return yee_emu::from_bits<T>(
        yee_emu::warp_exchange(mask, yee_emu::to_bits(v), src, {site_file, site_line}));
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32, YEE_EMU_SITE)
{
    const int l = yee_emu::lane(), seg = l & (width - 1);
    const int src = seg >= (int)delta ? l - (int)delta : -1;
    return yee_emu::from_bits<T>(
        yee_emu::warp_exchange(mask, yee_emu::to_bits(v), src, {site_file, site_line}));
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = 32, YEE_EMU_SITE)
{
    const int l = yee_emu::lane();
    const int src = ((l ^ lane_mask) & (width - 1)) | (l & ~(width - 1));
    return yee_emu::from_bits<T>(
        yee_emu::warp_exchange(mask, yee_emu::to_bits(v), src, {site_file, site_line}));
}
inline unsigned __ballot_sync(unsigned mask, int predicate, YEE_EMU_SITE)
{
    return yee_emu::warp_ballot(mask, predicate, {site_file, site_line});
}
inline int __any_sync(unsigned mask, int predicate, YEE_EMU_SITE)
{
    return __ballot_sync(mask, predicate, site_file, site_line) != 0;
}
inline int __all_sync(unsigned mask, int predicate, YEE_EMU_SITE)
{
    return __ballot_sync(mask, predicate, site_file, site_line) ==
           __ballot_sync(mask, 1, site_file, site_line);
}

/* ---- launches ---- */

namespace yee_emu {

/* Checks the arguments of one launch: pointer() reports a pointer that is neither NULL nor inside
 * a live cudaMalloc block. */
class arg_checker {
  public:
    arg_checker(const char *kernel, site at) : kernel_(kernel), at_(at) {}
    void set_index(int i) { index_ = i; }
    void pointer(const void *p, const char *member);
    bool ok() const { return ok_; }

  private:
    const char *kernel_;
    site at_;
    int index_ = 0;
    bool ok_ = true;
};

/* Kernel arguments by type: a raw pointer is checked; a struct with device pointers inside has an
 * overload found by argument-dependent lookup (kernels/cuda/emu/yee_kernel_args.h); anything else
 * is passed by value unchecked. */
template <class T> inline void kernel_arg(arg_checker &c, T *const &p) { c.pointer(p, nullptr); }
template <class T>
inline typename std::enable_if<!std::is_pointer<T>::value>::type kernel_arg(arg_checker &,
                                                                            const T &)
{
}

/* One launch, type-erased for the runtime: body(state) runs the current thread (threadIdx set);
 * range(state, first) runs the block's threads from linear index `first` on, one after another. */
struct grid_job {
    const char *kernel;
    site at;
    dim3 grid, block;
    size_t shmem;
    void (*body)(void *state);
    void (*range)(void *state, unsigned first);
    std::shared_ptr<void> state;
};
/* Validates the configuration, then runs the job now or (deferred) queues it on stream s.
 * args_ok = 0: an argument was reported; the launch fails. */
void submit_launch(grid_job job, cudaStream_t s, bool args_ok);

template <auto K, class F = decltype(K)> struct launch;

/* A launch of kernel K; the kernel is a template argument so the thread loop inlines it. */
template <auto K, class... P> struct launch<K, void (*)(P...)> {
    typedef std::tuple<typename std::decay<P>::type...> args_type;
    const char *name;
    site at;
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;

    template <class... A> void operator()(A &&...a) const
    {
        static_assert(sizeof...(A) == sizeof...(P), "kernel launched with the wrong arity");
        /* the arguments are copied now, converted to the parameter types, as a launch does */
        std::shared_ptr<args_type> st(new args_type(std::forward<A>(a)...));
        arg_checker check(name, at);
        check_all(check, *st, std::index_sequence_for<P...>());
        grid_job job{name, at, grid, block, shmem, &body, &range, st};
        submit_launch(job, stream, check.ok());
    }

  private:
    template <class Tuple, size_t... I>
    static void check_all(arg_checker &c, const Tuple &t, std::index_sequence<I...>)
    {
        int dummy[] = {0, (c.set_index((int)I), kernel_arg(c, std::get<I>(t)), 0)...};
        (void)dummy;
    }
    static void body(void *state) { std::apply(K, *static_cast<args_type *>(state)); }
    static void range(void *state, unsigned first)
    {
        const args_type &args = *static_cast<args_type *>(state);
        const dim3 b = blockDim;
        unsigned q = 0;
        for (unsigned z = 0; z < b.z; z++)
            for (unsigned y = 0; y < b.y; y++)
                for (unsigned x = 0; x < b.x; x++, q++) {
                    if (q < first)
                        continue;
                    threadIdx.x = x;
                    threadIdx.y = y;
                    threadIdx.z = z;
                    std::apply(K, args);
                }
    }
};

template <auto K>
inline launch<K> make_launch(const char *name, const char *file, int line, dim3 grid, dim3 block,
                             size_t shmem = 0, cudaStream_t s = 0)
{
    return launch<K>{name, site{file, line}, grid, block, shmem, s};
}

} // namespace yee_emu

/* k<<<grid, block[, shmem[, stream]]>>>(args) after kernels/cuda/emu/rewrite.cmake. */
#define YEE_EMU_LAUNCH(k, ...) ::yee_emu::make_launch<&k>(#k, __FILE__, __LINE__, __VA_ARGS__)

#endif
