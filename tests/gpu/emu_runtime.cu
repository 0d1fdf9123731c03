/* tests/gpu/emu_runtime.cu -- the CUDA emulation itself (kernels/cuda/emu), in the emulated build.
 *
 * usage: emu_runtime          (YEE_CUDA_EMU_DEFER=1 in the environment: the deferred checks too)
 * Each check states what a GPU does and asserts the emulation does the same, or reports what a
 * GPU would fault on: launches of every block and thread, launch limits, cooperative blocks
 * (__syncthreads with __shared__ memory, warp shuffles on whole and partial warps), the memory
 * registry (NaN-filled allocations, copy direction and bounds), stream and event order, and in
 * deferred mode that a missing synchronization reads stale data. The checks that leave a sticky
 * error (a host pointer passed to a kernel, a divergent barrier) run in a child process each, and
 * their diagnostics must name the line of this file that made the call.
 */
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures = 0;

static void check(bool ok, const char *what)
{
    printf("%s %s\n", ok ? "PASS" : "FAIL", what);
    failures += !ok;
}

/* ---- kernels ---- */

/* out[linear thread id of the grid] = that id: every thread of every block runs once. */
__global__ void iota_kernel(int *out, int n)
{
    const int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    const int tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const int id = bx * blockDim.x * blockDim.y * blockDim.z + tx;
    if (id < n)
        out[id] = out[id] == -1 ? id : -2; /* -2: this cell was visited twice */
}

/* A block's sum by a tree in shared memory: wrong unless every thread waits at each barrier. */
__global__ void block_sum_kernel(const float *in, float *out)
{
    __shared__ float part[256];
    const unsigned t = threadIdx.x;
    part[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half)
            part[t] += part[t + half];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = part[0];
}

/* Each warp's sum by shuffles (down and xor), written by lane 0; the block may end in a partial
 * warp, whose missing lanes the exchanges must not read. */
__global__ void warp_sum_kernel(const double *in, double *down, double *xr, int *up, int n)
{
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    const int warps = (blockDim.x + 31) / 32;
    const int lane = threadIdx.x & 31, warp = blockIdx.x * warps + threadIdx.x / 32;
    const int lanes = blockDim.x - (threadIdx.x & ~31) < 32 ? blockDim.x - (threadIdx.x & ~31) : 32;
    const unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u;
    double v = id < n ? in[id] : 0.0, w = v;
    for (int off = 16; off > 0; off /= 2) {
        const double o = __shfl_down_sync(mask, v, off);
        v += lane + off < lanes ? o : 0.0;
    }
    for (int m = 1; m < 32; m *= 2) {
        const double o = __shfl_xor_sync(mask, w, m);
        w += (lane ^ m) < lanes ? o : 0.0;
    }
    const int prev = __shfl_up_sync(mask, lane, 1);
    if (lane == 0) {
        down[warp] = v;
        xr[warp] = w;
    }
    if (lane == 1)
        up[warp] = prev;
}

__global__ void fill_kernel(float *out, float value, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = value;
}

__global__ void copy_kernel(const float *in, float *out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

/* Thread 0 leaves before the barrier the others wait at: a GPU may hang or go on with garbage. */
__global__ void divergent_kernel(float *out)
{
    if (threadIdx.x == 0)
        return;
    __syncthreads();
    out[threadIdx.x] = 1.0f;
}

/* ---- checks ---- */

static void check_every_thread_runs_once(void)
{
    const dim3 grid(3, 2, 2), block(5, 3, 2);
    const int n = 3 * 2 * 2 * 5 * 3 * 2;
    int *d = NULL, h[360];
    cudaMalloc((void **)&d, sizeof h);
    cudaMemset(d, 0xff, sizeof h); /* -1 */
    iota_kernel<<<grid, block>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    int ok = cudaGetLastError() == cudaSuccess;
    for (int i = 0; i < n; i++)
        ok &= h[i] == i;
    check(ok, "every thread of a 3x2x2 grid of 5x3x2 blocks runs once, with its indices");
    cudaFree(d);
}

static void check_launch_limits(void)
{
    int *d = NULL;
    cudaMalloc((void **)&d, 64);
    const dim3 bad_blocks[3] = {dim3(1025), dim3(32, 33), dim3(1, 1, 65)};
    int ok = 1;
    for (int q = 0; q < 3; q++) {
        iota_kernel<<<1, bad_blocks[q]>>>(d, 0);
        ok &= cudaGetLastError() == cudaErrorInvalidConfiguration;
    }
    iota_kernel<<<dim3(1, 65536), 32>>>(d, 0);
    ok &= cudaGetLastError() == cudaErrorInvalidConfiguration;
    iota_kernel<<<dim3(0), 32>>>(d, 0);
    ok &= cudaGetLastError() == cudaErrorInvalidConfiguration;
    iota_kernel<<<1, 32, 49 * 1024>>>(d, 0);
    ok &= cudaGetLastError() == cudaErrorInvalidConfiguration;
    check(ok, "launch limits (1025 threads, 32x33, z 65, grid.y 65536, empty grid, 49 KiB "
              "shared) give cudaErrorInvalidConfiguration");
    iota_kernel<<<1, dim3(32, 32)>>>(d, 0);
    check(cudaGetLastError() == cudaSuccess,
          "the error is not sticky: a valid 32x32 launch after it succeeds");
    cudaFree(d);
}

static void check_cooperative_blocks(void)
{
    const int nb = 4, bs = 256;
    float h[4 * 256], sums[4];
    for (int i = 0; i < nb * bs; i++)
        h[i] = (float)(i % 7);
    float *din = NULL, *dout = NULL;
    cudaMalloc((void **)&din, sizeof h);
    cudaMalloc((void **)&dout, sizeof sums);
    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
    block_sum_kernel<<<nb, bs>>>(din, dout);
    cudaMemcpy(sums, dout, sizeof sums, cudaMemcpyDeviceToHost);
    int ok = cudaGetLastError() == cudaSuccess;
    for (int b = 0; b < nb; b++) {
        float want = 0.0f;
        for (int t = 0; t < bs; t++)
            want += h[b * bs + t];
        ok &= sums[b] == want;
    }
    check(ok, "__syncthreads: shared-memory tree sums of 4 blocks of 256 threads");
    cudaFree(din);
    cudaFree(dout);

    /* 100 threads a block: warps of 32, 32, 32 and a partial one of 4 lanes */
    const int n = 2 * 100, nw = 2 * 4;
    double in[200], down[8], xr[8];
    int up[8];
    for (int i = 0; i < n; i++)
        in[i] = 0.5 * i;
    double *d_in = NULL, *d_down = NULL, *d_xr = NULL;
    int *d_up = NULL;
    cudaMalloc((void **)&d_in, sizeof in);
    cudaMalloc((void **)&d_down, sizeof down);
    cudaMalloc((void **)&d_xr, sizeof xr);
    cudaMalloc((void **)&d_up, sizeof up);
    cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
    warp_sum_kernel<<<2, 100>>>(d_in, d_down, d_xr, d_up, n);
    cudaMemcpy(down, d_down, sizeof down, cudaMemcpyDeviceToHost);
    cudaMemcpy(xr, d_xr, sizeof xr, cudaMemcpyDeviceToHost);
    cudaMemcpy(up, d_up, sizeof up, cudaMemcpyDeviceToHost);
    ok = cudaGetLastError() == cudaSuccess;
    for (int w = 0; w < nw; w++) {
        const int first = (w / 4) * 100 + (w % 4) * 32;
        const int lanes = w % 4 == 3 ? 4 : 32;
        double want = 0.0;
        for (int l = 0; l < lanes; l++)
            want += in[first + l];
        ok &= down[w] == want && xr[w] == want && up[w] == 0;
    }
    check(ok, "warp shuffles (down, xor, up) sum whole and partial (4-lane) warps");
    cudaFree(d_in);
    cudaFree(d_down);
    cudaFree(d_xr);
    cudaFree(d_up);
}

static void check_memory_registry(void)
{
    float *d = NULL, h[16];
    cudaMalloc((void **)&d, sizeof h);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int nan = 1;
    for (int i = 0; i < 16; i++)
        nan &= h[i] != h[i];
    check(nan, "cudaMalloc'd memory reads as NaN until written");
    check(cudaMemcpy(h, d, sizeof h, cudaMemcpyHostToDevice) == cudaErrorInvalidMemcpyDirection,
          "cudaMemcpy HostToDevice into host memory is refused");
    cudaGetLastError();
    check(cudaMemcpy(h, d + 1, sizeof h, cudaMemcpyDeviceToHost) ==
              cudaErrorInvalidMemcpyDirection,
          "cudaMemcpy reading 4 bytes past the end of a device block is refused");
    cudaGetLastError();
    check(cudaMemcpy(d, h, sizeof h, cudaMemcpyDefault) == cudaSuccess,
          "cudaMemcpyDefault infers HostToDevice from the registry");
    check(cudaMemset(d, 0, sizeof h + 1) == cudaErrorInvalidValue,
          "cudaMemset one byte past the end is refused");
    cudaGetLastError();
    check(cudaFree(h) == cudaErrorInvalidDevicePointer, "cudaFree of host memory is refused");
    cudaGetLastError();
    check(cudaFree(d) == cudaSuccess && cudaFree(NULL) == cudaSuccess, "cudaFree, and of NULL");
}

/* Streams and events: a copy on a non-blocking stream that waits for an event sees the kernel
 * before the event; in deferred mode, the same copy without the wait reads stale data. */
static void check_streams(int deferred)
{
    const int n = 64;
    float *d = NULL, *host = NULL;
    cudaMalloc((void **)&d, n * sizeof(float));
    cudaMallocHost((void **)&host, n * sizeof(float));
    cudaStream_t side;
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    cudaEvent_t filled;
    cudaEventCreateWithFlags(&filled, cudaEventDisableTiming);

    fill_kernel<<<1, n>>>(d, 3.0f, n);
    cudaEventRecord(filled, 0);
    cudaStreamWaitEvent(side, filled, 0);
    cudaMemcpyAsync(host, d, n * sizeof(float), cudaMemcpyDeviceToHost, side);
    if (deferred)
        check(host[0] != 3.0f, "deferred: a pinned copy has not happened before the host waits");
    cudaStreamSynchronize(side);
    check(host[0] == 3.0f && host[n - 1] == 3.0f,
          "cudaStreamWaitEvent orders a copy on a non-blocking stream after the kernel");

    /* the same, without the event wait: only a synchronization of stream 0 makes it right */
    fill_kernel<<<1, n>>>(d, 5.0f, n);
    cudaMemcpyAsync(host, d, n * sizeof(float), cudaMemcpyDeviceToHost, side);
    cudaStreamSynchronize(side);
    if (deferred)
        check(host[0] == 3.0f, "deferred: without the event wait the copy reads stale data");
    cudaDeviceSynchronize();

    /* a device synchronization waits for the non-blocking streams too (and so does a free) */
    fill_kernel<<<1, n>>>(d, 11.0f, n);
    cudaEventRecord(filled, 0);
    cudaStreamWaitEvent(side, filled, 0);
    cudaMemcpyAsync(host, d, n * sizeof(float), cudaMemcpyDeviceToHost, side);
    cudaDeviceSynchronize();
    check(host[0] == 11.0f, "cudaDeviceSynchronize waits for a non-blocking stream's copy");

    /* the legacy default stream: work on a blocking stream waits for stream 0's */
    cudaStream_t blocking;
    cudaStreamCreate(&blocking);
    fill_kernel<<<1, n>>>(d, 7.0f, n);
    cudaMemcpyAsync(host, d, n * sizeof(float), cudaMemcpyDeviceToHost, blocking);
    cudaStreamSynchronize(blocking);
    check(host[0] == 7.0f, "a blocking stream's copy waits for the default stream's kernel");

    /* an event query is a wait: it makes the work before the event happen */
    fill_kernel<<<1, n>>>(d, 9.0f, n);
    cudaMemcpyAsync(host, d, n * sizeof(float), cudaMemcpyDeviceToHost, 0);
    cudaEventRecord(filled, 0);
    check(cudaEventQuery(filled) == cudaSuccess && host[0] == 9.0f,
          "cudaEventQuery returns once the work before the event has run");
    cudaEventDestroy(filled);
    cudaStreamDestroy(side);
    cudaStreamDestroy(blocking);
    cudaFreeHost(host);
    cudaFree(d);
}

/* Runs fn in a child process (a sticky error ends the context) with stderr captured; returns
 * whether the child's stderr contains `expect`. */
static int child_reports(void (*fn)(void), const char *expect)
{
    int fd[2];
    if (pipe(fd) != 0)
        return 0;
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        fn();
        fflush(stderr);
        _exit(0);
    }
    close(fd[1]);
    char buf[8192];
    size_t len = 0;
    ssize_t r;
    while (len < sizeof buf - 1 && (r = read(fd[0], buf + len, sizeof buf - 1 - len)) > 0)
        len += (size_t)r;
    buf[len] = '\0';
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    const int found = strstr(buf, expect) != NULL;
    if (!found)
        printf("  child stderr (wanted \"%s\"):\n%s", expect, buf);
    return found;
}

/* the lines the diagnostics must name: each launch is on the line after its constant */
static const int host_pointer_line = __LINE__ + 5;

static void launch_with_host_pointer(void)
{
    static float host[32];
    fill_kernel<<<1, 32>>>(host, 1.0f, 32);
    if (cudaGetLastError() == cudaErrorIllegalAddress && cudaDeviceSynchronize() != cudaSuccess)
        fprintf(stderr, "STICKY\n");
}

static const int divergent_line = __LINE__ + 6;

static void launch_divergent(void)
{
    float *d = NULL;
    cudaMalloc((void **)&d, 64 * sizeof(float));
    divergent_kernel<<<1, 64>>>(d);
    cudaDeviceSynchronize();
    if (cudaGetLastError() == cudaErrorLaunchFailure)
        fprintf(stderr, "STICKY\n");
}

int main(void)
{
    const char *defer = getenv("YEE_CUDA_EMU_DEFER");
    const int deferred = defer && defer[0] == '1';
    printf("mode: %s\n", deferred ? "deferred" : "eager");
    check_every_thread_runs_once();
    check_launch_limits();
    check_cooperative_blocks();
    check_memory_registry();
    check_streams(deferred);

    char want[256];
    snprintf(want, sizeof want, "emu_runtime.cu:%d: fill_kernel: argument 1 = ",
             host_pointer_line);
    check(child_reports(launch_with_host_pointer, want),
          "a host pointer passed to a kernel is reported at the .cu line of the launch");
    check(child_reports(launch_with_host_pointer, "STICKY"),
          "and fails the launch with a sticky cudaErrorIllegalAddress");
    snprintf(want, sizeof want, "emu_runtime.cu:%d: divergent_kernel", divergent_line);
    check(child_reports(launch_divergent, want),
          "a barrier thread 0 never reaches is a fault named at the launch line");
    check(child_reports(launch_divergent, "STICKY"),
          "and fails with a sticky cudaErrorLaunchFailure");
    printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
