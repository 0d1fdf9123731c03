/* kernels/cuda/emu/runtime.cpp -- the emulated CUDA runtime (contract in cuda_runtime.h).
 *
 * Three parts: the memory registry (what cudaMalloc and cudaMallocHost gave, checked by every
 * copy, memset and kernel argument), the stream machine (every piece of device work is an op
 * queued on a stream, with the ops it must wait for; eager mode completes each op when it is
 * queued, deferred mode only when the host waits for it), and the grid runner (blocks in order,
 * threads plain on the host stack, or as fibers when a block synchronizes).
 */
#include "cuda_runtime.h"

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

#if defined(__has_include)
#if __has_include(<sanitizer/asan_interface.h>)
#include <sanitizer/asan_interface.h>
#endif
#endif
#ifndef ASAN_UNPOISON_MEMORY_REGION
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

uint3 threadIdx;
uint3 blockIdx;
dim3 blockDim;
dim3 gridDim;

namespace yee_emu {
namespace {

namespace bctx = boost::context;

/* ---- diagnostics and error state ---- */

/* A fault inside a kernel (a divergent barrier, a shuffle the emulation cannot honour): thrown
 * through the kernel's frames to the grid runner, which fails the launch. */
struct kernel_fault {
    std::string what;
};

/* f relative to the project root (kernels/cuda/backend_cuda.cu), as the build names it. */
const char *short_file(const char *f)
{
#ifdef YEE_SOURCE_DIR
    const size_t n = strlen(YEE_SOURCE_DIR);
    if (f && strncmp(f, YEE_SOURCE_DIR, n) == 0 && f[n] == '/')
        return f + n + 1;
#endif
    return f ? f : "?";
}

void diag(site at, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag(site at, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "yee cuda emulation: %s:%d: %s\n", short_file(at.file), at.line, msg);
    fflush(stderr);
}

struct kernel_stats {
    long launches = 0, blocks = 0, threads = 0, cooperative_blocks = 0;
};

enum mem_kind { MEM_DEVICE = 1, MEM_PINNED = 2 };

struct allocation {
    size_t size;
    mem_kind kind;
    site at;
};

struct op;
typedef std::shared_ptr<op> op_ptr;

/* One piece of device work on a stream: it runs after the op before it on the same stream and
 * after every op in deps. */
struct op {
    CUstream_st *stream;
    std::function<void()> run;
    std::vector<op_ptr> deps;
    bool done = false;
};

} // namespace
} // namespace yee_emu

struct CUstream_st {
    unsigned flags = 0;
    bool legacy = false;
    std::deque<yee_emu::op_ptr> pending;
    yee_emu::op_ptr last;
};

struct CUevent_st {
    unsigned flags = 0;
    yee_emu::op_ptr record; /* the last cudaEventRecord, or null */
    double t_ms = 0.0;
};

namespace yee_emu {
namespace {

struct runtime {
    std::map<uintptr_t, allocation> allocs; /* by base address */
    CUstream_st legacy;                      /* stream 0 */
    std::vector<CUstream_st *> streams;      /* every created stream (flags: blocking or not) */
    cudaError_t last = cudaSuccess, sticky = cudaSuccess;
    bool deferred = false, stats = false;
    std::map<std::string, kernel_stats> kstats;
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();

    runtime()
    {
        legacy.legacy = true;
        const char *d = getenv("YEE_CUDA_EMU_DEFER");
        deferred = d && d[0] == '1';
        const char *s = getenv("YEE_CUDA_EMU_STATS");
        stats = s && s[0] == '1';
    }
    ~runtime()
    {
        if (!stats)
            return;
        for (const auto &k : kstats)
            fprintf(stderr,
                    "yee cuda emulation: kernel %s: %ld launches, %ld blocks, %ld threads, %ld "
                    "cooperative blocks\n",
                    k.first.c_str(), k.second.launches, k.second.blocks, k.second.threads,
                    k.second.cooperative_blocks);
    }
};

runtime &rt()
{
    static runtime r;
    return r;
}

cudaError_t fail(cudaError_t e)
{
    rt().last = e;
    return e;
}

/* ---- memory registry ---- */

/* The live block holding p, or null; *base its start. */
const allocation *find(const void *p, uintptr_t *base)
{
    auto &a = rt().allocs;
    const uintptr_t u = (uintptr_t)p;
    auto it = a.upper_bound(u);
    if (it == a.begin())
        return nullptr;
    --it;
    if (u >= it->first + std::max<size_t>(it->second.size, 1))
        return nullptr;
    *base = it->first;
    return &it->second;
}

const char *kind_name(const allocation *a)
{
    return !a ? "host memory" : (a->kind == MEM_DEVICE ? "device memory" : "pinned host memory");
}

/* Checks [p, p+n) as one side of a copy: device memory when want_device, host memory otherwise,
 * and inside its block. Returns false (and reports) when it is not. */
bool check_span(site at, const char *call, const char *role, const void *p, size_t n,
                bool want_device)
{
    uintptr_t base = 0;
    const allocation *a = find(p, &base);
    const bool is_device = a && a->kind == MEM_DEVICE;
    if (want_device != is_device) {
        diag(at, "%s: %s %p is %s, expected %s", call, role, p, kind_name(a),
             want_device ? "device memory" : "host memory");
        return false;
    }
    if (a && (uintptr_t)p + n > base + a->size) {
        diag(at, "%s: %s [%p, +%zu bytes) runs %zu bytes past the end of its %zu-byte block "
                 "(allocated at %s:%d)",
             call, role, p, n, (size_t)((uintptr_t)p + n - base - a->size), a->size,
             short_file(a->at.file), a->at.line);
        return false;
    }
    return true;
}

/* ---- streams ---- */

CUstream_st *stream_of(cudaStream_t s)
{
    return s ? s : &rt().legacy;
}

void run_op(const op_ptr &o)
{
    if (rt().sticky == cudaSuccess)
        o->run();
    o->done = true;
    o->run = nullptr; /* drop captured state (kernel arguments, buffers) now */
    o->deps.clear();
}

/* Runs what target needs, then target: the ops before it on its stream, each after its deps. */
void complete(const op_ptr &target)
{
    while (target && !target->done) {
        CUstream_st *s = target->stream;
        op_ptr head = s->pending.front();
        for (const op_ptr &d : head->deps)
            complete(d);
        s->pending.pop_front();
        run_op(head);
    }
}

void complete_stream(CUstream_st *s)
{
    if (s->last)
        complete(s->last);
}

/* Everything queued on every stream, as cudaDeviceSynchronize waits for. */
void complete_all()
{
    complete_stream(&rt().legacy);
    for (CUstream_st *s : rt().streams)
        complete_stream(s);
}

/* Queues fn on stream s. Legacy default stream semantics: work on stream 0 waits for the
 * blocking streams' earlier work and theirs for stream 0's; non-blocking streams only for their
 * own and for `extra`. Eager mode completes it at once. */
op_ptr enqueue(cudaStream_t sh, std::function<void()> fn, op_ptr extra = nullptr)
{
    CUstream_st *s = stream_of(sh);
    op_ptr o = std::make_shared<op>();
    o->stream = s;
    o->run = std::move(fn);
    auto pending = [](const op_ptr &p) { return p && !p->done; };
    if (s->legacy) {
        for (CUstream_st *b : rt().streams)
            if (!(b->flags & cudaStreamNonBlocking) && pending(b->last))
                o->deps.push_back(b->last);
    } else if (!(s->flags & cudaStreamNonBlocking) && pending(rt().legacy.last)) {
        o->deps.push_back(rt().legacy.last);
    }
    if (pending(extra))
        o->deps.push_back(extra);
    s->pending.push_back(o);
    s->last = o;
    if (!rt().deferred)
        complete(o);
    return o;
}

/* ---- the grid runner ---- */

enum thread_state { T_READY, T_BARRIER, T_WARP, T_DONE };

struct emu_thread {
    uint3 tid;
    bctx::fiber fib;   /* its suspended context while it waits */
    bctx::fiber sched; /* inside the fiber: the scheduler to return to */
    thread_state st = T_READY;
    bool started = false;
    unsigned mask = 0;
    uint64_t value = 0, result = 0;
    int src = -1;
    site at{nullptr, 0};
};

/* Stacks for the fibers of cooperative blocks, kept between launches. */
class stack_pool {
  public:
    static constexpr size_t size = 256 * 1024;
    ~stack_pool()
    {
        for (void *p : free_)
            ::free(p);
    }
    void *take()
    {
        if (free_.empty()) {
            void *p = nullptr;
            if (posix_memalign(&p, 64, size) != 0)
                throw std::bad_alloc();
            return p;
        }
        void *p = free_.back();
        free_.pop_back();
        return p;
    }
    void give(void *p)
    {
        /* a finished fiber leaves its frames' redzones poisoned; the next one starts clean */
        ASAN_UNPOISON_MEMORY_REGION(p, size);
        free_.push_back(p);
    }

  private:
    std::vector<void *> free_;
};

stack_pool &stacks()
{
    static stack_pool p;
    return p;
}

struct pool_allocator {
    bctx::stack_context allocate()
    {
        bctx::stack_context sc;
        void *p = stacks().take();
        sc.size = stack_pool::size;
        sc.sp = static_cast<char *>(p) + stack_pool::size;
        return sc;
    }
    void deallocate(bctx::stack_context &sc)
    {
        stacks().give(static_cast<char *>(sc.sp) - sc.size);
    }
};

/* The block being run. cooperative: its threads are fibers; otherwise the current thread runs on
 * the host stack and cannot wait at a synchronization point. */
struct block_run {
    const grid_job *job;
    std::vector<emu_thread> th;
    int current = 0;
    bool in_fiber = false;
};

thread_local block_run *g_block = nullptr;

int linear_of(uint3 t, dim3 b)
{
    return (int)(t.x + b.x * (t.y + b.y * t.z));
}

uint3 tid_of(int linear, dim3 b)
{
    uint3 t;
    t.x = (unsigned)linear % b.x;
    t.y = (unsigned)linear / b.x % b.y;
    t.z = (unsigned)linear / (b.x * b.y);
    return t;
}

/* Suspends the calling thread (a fiber) at a synchronization point until the scheduler releases
 * it; a thread on the host stack cannot wait, which means its block's first thread passed no
 * synchronization point where this one reached one. */
void wait_here(thread_state st, site at)
{
    block_run *b = g_block;
    if (!b || !b->in_fiber) {
        const uint3 t = threadIdx;
        throw kernel_fault{std::string("thread (") + std::to_string(t.x) + "," +
                           std::to_string(t.y) + "," + std::to_string(t.z) + ") reached " +
                           (st == T_BARRIER ? "__syncthreads" : "a warp synchronization") +
                           " at " + short_file(at.file) + ":" + std::to_string(at.line) +
                           " but thread (0,0,0) of its block finished without reaching any "
                           "(a divergent synchronization)"};
    }
    emu_thread &me = b->th[b->current];
    me.st = st;
    me.at = at;
    /* resumed by the scheduler, with b->current this thread again */
    bctx::fiber back = std::move(me.sched).resume();
    b->th[b->current].sched = std::move(back);
}

std::string where_str(site at)
{
    return std::string(short_file(at.file)) + ":" + std::to_string(at.line);
}

/* A fault raised inside a fiber cannot cross its stack; it is kept and rethrown by the runner. */
thread_local std::string g_fiber_fault;
void throw_later(const std::string &f)
{
    if (g_fiber_fault.empty())
        g_fiber_fault = f;
}

/* Runs thread q of the current block as a fiber until it waits or ends. */
void resume_thread(block_run &b, int q)
{
    emu_thread &t = b.th[q];
    b.current = q;
    threadIdx = t.tid;
    b.in_fiber = true;
    if (!t.started) {
        t.started = true;
        block_run *bp = &b;
        t.fib = bctx::fiber(std::allocator_arg, pool_allocator(),
                            [bp, q](bctx::fiber &&sched) {
                                bp->th[q].sched = std::move(sched);
                                std::string fault;
                                try {
                                    bp->job->body(bp->job->state.get());
                                } catch (const kernel_fault &f) {
                                    fault = f.what;
                                }
                                emu_thread &me = bp->th[q];
                                me.st = T_DONE;
                                if (!fault.empty())
                                    throw_later(fault);
                                return std::move(me.sched);
                            });
    }
    t.fib = std::move(t.fib).resume();
    b.in_fiber = false;
}

/* Releases the threads waiting at a point every thread it concerns has reached; fails on a
 * deadlock (threads waiting at points that can never all be reached). */
void run_cooperative(block_run &b)
{
    const int n = (int)b.th.size();
    const int nwarps = (n + 31) / 32;
    for (;;) {
        for (int q = 0; q < n; q++)
            if (b.th[q].st == T_READY) {
                resume_thread(b, q);
                if (!g_fiber_fault.empty()) {
                    std::string f = g_fiber_fault;
                    g_fiber_fault.clear();
                    throw kernel_fault{f};
                }
            }
        int done = 0, at_barrier = 0;
        bool progress = false;
        for (int q = 0; q < n; q++) {
            done += b.th[q].st == T_DONE;
            at_barrier += b.th[q].st == T_BARRIER;
        }
        if (done == n)
            return;
        for (int w = 0; w < nwarps; w++) {
            const int lo = 32 * w, hi = std::min(n, lo + 32);
            int waiting = 0, live = 0;
            for (int q = lo; q < hi; q++) {
                live += b.th[q].st != T_DONE;
                waiting += b.th[q].st == T_WARP;
            }
            if (waiting == 0 || waiting != live)
                continue;
            /* every live lane is at a warp exchange: check the masks, then swap values */
            unsigned present = 0;
            for (int q = lo; q < hi; q++)
                if (b.th[q].st == T_WARP)
                    present |= 1u << (q - lo);
            const unsigned exists = hi - lo == 32 ? 0xffffffffu : ((1u << (hi - lo)) - 1u);
            for (int q = lo; q < hi; q++) {
                const emu_thread &t = b.th[q];
                if (t.st != T_WARP)
                    continue;
                if ((t.mask & exists) != present)
                    throw kernel_fault{
                        "warp " + std::to_string(w) + " lane " + std::to_string(q - lo) + " at " +
                        where_str(t.at) + ": mask 0x" + [&] {
                            char h[16];
                            snprintf(h, sizeof h, "%08x", t.mask);
                            return std::string(h);
                        }() + " does not name exactly the warp's live lanes (those that have "
                              "not exited); the emulation runs whole-warp exchanges only"};
            }
            for (int q = lo; q < hi; q++) {
                emu_thread &t = b.th[q];
                if (t.st != T_WARP)
                    continue;
                const int s = t.src;
                t.result = (s >= 0 && s < hi - lo && b.th[lo + s].st == T_WARP) ? b.th[lo + s].value
                                                                               : t.value;
            }
            for (int q = lo; q < hi; q++)
                if (b.th[q].st == T_WARP)
                    b.th[q].st = T_READY;
            progress = true;
        }
        if (at_barrier > 0 && at_barrier + done == n) {
            if (done > 0)
                throw kernel_fault{std::to_string(done) + " thread(s) of block (" +
                                   std::to_string(blockIdx.x) + "," + std::to_string(blockIdx.y) +
                                   "," + std::to_string(blockIdx.z) +
                                   ") exited while the others wait at __syncthreads (" +
                                   where_str([&] {
                                       for (const emu_thread &t : b.th)
                                           if (t.st == T_BARRIER)
                                               return t.at;
                                       return site{nullptr, 0};
                                   }()) +
                                   ")"};
            for (emu_thread &t : b.th)
                if (t.st == T_BARRIER)
                    t.st = T_READY;
            progress = true;
        }
        if (!progress) {
            std::string states;
            for (int q = 0; q < n && states.size() < 300; q++)
                if (b.th[q].st != T_DONE)
                    states += " t" + std::to_string(q) +
                              (b.th[q].st == T_BARRIER ? "@barrier " : "@warp ") +
                              where_str(b.th[q].at);
            throw kernel_fault{"block deadlocks: threads wait at points the others never "
                               "reach:" + states};
        }
    }
}

/* One block. cooperative < 0: not known yet; its first thread runs in a fiber, and if it reaches a
 * synchronization point the block (and the rest of the launch) runs cooperatively, otherwise
 * plainly: threads one after another on this stack. Returns whether this block ran
 * cooperatively. A thread of a plain block that reaches a synchronization point is a fault
 * (wait_here): the first thread of the launch synchronized nowhere. */
bool run_block(const grid_job &job, int *cooperative)
{
    const unsigned n = job.block.x * job.block.y * job.block.z;
    if (*cooperative == 0) {
        job.range(job.state.get(), 0);
        return false;
    }
    block_run b;
    b.job = &job;
    b.th.reserve(n); /* running fibers hold references into it */
    b.th.resize(1);
    b.th[0].tid = tid_of(0, job.block);
    g_block = &b;
    struct clear_block {
        ~clear_block() { g_block = nullptr; }
    } clear;
    resume_thread(b, 0);
    if (!g_fiber_fault.empty()) {
        std::string f = g_fiber_fault;
        g_fiber_fault.clear();
        throw kernel_fault{f};
    }
    if (b.th[0].st == T_DONE && *cooperative < 0) {
        *cooperative = 0;
        g_block = nullptr;
        job.range(job.state.get(), 1);
        return false;
    }
    *cooperative = 1;
    b.th.resize(n);
    for (unsigned q = 1; q < n; q++)
        b.th[q].tid = tid_of((int)q, job.block);
    run_cooperative(b);
    return true;
}

void run_grid(const grid_job &job)
{
    gridDim = job.grid;
    blockDim = job.block;
    kernel_stats &ks = rt().kstats[job.kernel];
    int cooperative = -1;
    try {
        for (unsigned z = 0; z < job.grid.z; z++)
            for (unsigned y = 0; y < job.grid.y; y++)
                for (unsigned x = 0; x < job.grid.x; x++) {
                    blockIdx.x = x;
                    blockIdx.y = y;
                    blockIdx.z = z;
                    ks.cooperative_blocks += run_block(job, &cooperative);
                }
    } catch (const kernel_fault &f) {
        g_block = nullptr;
        diag(job.at, "%s<<<(%u,%u,%u), (%u,%u,%u)>>>: block (%u,%u,%u): %s", job.kernel,
             job.grid.x, job.grid.y, job.grid.z, job.block.x, job.block.y, job.block.z,
             blockIdx.x, blockIdx.y, blockIdx.z, f.what.c_str());
        rt().sticky = cudaErrorLaunchFailure;
    }
}

} // namespace

/* ---- device-side built-ins ---- */

int lane(void)
{
    return linear_of(threadIdx, blockDim) & 31;
}

void sync_block(site at)
{
    wait_here(T_BARRIER, at);
}

uint64_t warp_exchange(unsigned mask, uint64_t value, int src, site at)
{
    block_run *b = g_block;
    if (b && b->in_fiber) {
        emu_thread &me = b->th[b->current];
        me.mask = mask;
        me.value = value;
        me.src = src;
    }
    wait_here(T_WARP, at);
    b = g_block;
    return b->th[b->current].result;
}

unsigned warp_ballot(unsigned mask, int predicate, site at)
{
    /* every lane's predicate, one exchange per lane (32 rounds: ballots are rare) */
    unsigned bits = 0;
    for (int l = 0; l < 32; l++)
        if (warp_exchange(mask, predicate != 0, l, at))
            bits |= 1u << l;
    return bits;
}

void arg_checker::pointer(const void *p, const char *member)
{
    if (!p)
        return;
    uintptr_t base = 0;
    const allocation *a = find(p, &base);
    if (a && a->kind == MEM_DEVICE)
        return;
    ok_ = false;
    diag(at_, "%s: argument %d%s%s = %p is %s, not device memory", kernel_,
         index_ + 1, member ? " member " : "", member ? member : "", p, kind_name(a));
}

void submit_launch(grid_job job, cudaStream_t s, bool args_ok)
{
    const dim3 g = job.grid, b = job.block;
    const unsigned long long threads = (unsigned long long)b.x * b.y * b.z;
    if (b.x == 0 || b.y == 0 || b.z == 0 || g.x == 0 || g.y == 0 || g.z == 0 || b.x > 1024 ||
        b.y > 1024 || b.z > 64 || threads > 1024 || g.x > 2147483647u || g.y > 65535 ||
        g.z > 65535 || job.shmem > 48 * 1024) {
        diag(job.at, "%s<<<(%u,%u,%u), (%u,%u,%u), %zu>>>: invalid launch configuration",
             job.kernel, g.x, g.y, g.z, b.x, b.y, b.z, job.shmem);
        fail(cudaErrorInvalidConfiguration);
        return;
    }
    if (!args_ok) {
        rt().sticky = cudaErrorIllegalAddress;
        return;
    }
    if (rt().sticky != cudaSuccess)
        return;
    kernel_stats &ks = rt().kstats[job.kernel];
    ks.launches++;
    ks.blocks += (long)g.x * g.y * g.z;
    ks.threads += (long)((unsigned long long)g.x * g.y * g.z * threads);
    auto shared = std::make_shared<grid_job>(std::move(job));
    enqueue(s, [shared] { run_grid(*shared); });
}

} // namespace yee_emu

/* ---- the runtime API ---- */

using namespace yee_emu;

/* The codes the emulation returns, with CUDA's names and messages. */
static const struct {
    cudaError_t code;
    const char *name, *text;
} error_table[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid configuration argument"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
     "invalid copy direction for memcpy"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
     "an illegal memory access was encountered (emulated)"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure (emulated)"},
};

const char *cudaGetErrorName(cudaError_t e)
{
    for (const auto &t : error_table)
        if (t.code == e)
            return t.name;
    return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t e)
{
    for (const auto &t : error_table)
        if (t.code == e)
            return t.text;
    return "unknown error";
}

cudaError_t cudaGetLastError(void)
{
    const cudaError_t e = rt().sticky != cudaSuccess ? rt().sticky : rt().last;
    rt().last = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    return rt().sticky != cudaSuccess ? rt().sticky : rt().last;
}

/* The emulated machine has one device; its memory is the host's. */
static size_t meminfo(const char *key)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kib = 0;
    const size_t klen = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, klen) == 0 && sscanf(line + klen, ": %llu kB", &kib) == 1)
            break;
    fclose(f);
    return (size_t)kib * 1024u;
}

cudaError_t cudaGetDeviceCount(int *n)
{
    *n = 1;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int dev)
{
    return dev == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice);
}

cudaError_t cudaGetDevice(int *dev)
{
    *dev = 0;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int dev)
{
    if (dev != 0)
        return fail(cudaErrorInvalidDevice);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "emulated on the CPU");
    p->totalGlobalMem = meminfo("MemTotal");
    p->sharedMemPerBlock = 48 * 1024;
    p->warpSize = 32;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->major = 0;
    p->minor = 0;
    p->multiProcessorCount = 1;
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    *free_bytes = meminfo("MemAvailable");
    *total_bytes = meminfo("MemTotal");
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(const char *, int)
{
    complete_all();
    return rt().sticky;
}

static cudaError_t allocate(void **p, size_t bytes, mem_kind kind, site at)
{
    *p = nullptr;
    void *q = nullptr;
    /* 256-byte alignment, as cudaMalloc guarantees */
    if (posix_memalign(&q, 256, bytes ? bytes : 1) != 0) {
        diag(at, "cannot allocate %zu bytes of emulated %s", bytes,
             kind == MEM_DEVICE ? "device memory" : "pinned memory");
        return fail(cudaErrorMemoryAllocation);
    }
    /* NaN bytes: a value read before it was written spreads NaN into whatever uses it */
    memset(q, 0xff, bytes ? bytes : 1);
    rt().allocs[(uintptr_t)q] = allocation{bytes, kind, at};
    *p = q;
    return cudaSuccess;
}

cudaError_t cudaMalloc(void **p, size_t bytes, const char *file, int line)
{
    if (rt().sticky)
        return rt().sticky;
    return allocate(p, bytes, MEM_DEVICE, site{file, line});
}

cudaError_t cudaMallocHost(void **p, size_t bytes, const char *file, int line)
{
    return allocate(p, bytes, MEM_PINNED, site{file, line});
}

static cudaError_t release(void *p, mem_kind kind, const char *call, site at)
{
    if (!p)
        return cudaSuccess;
    /* freeing waits for the device, as cudaFree does (queued work may still use the block) */
    complete_all();
    auto it = rt().allocs.find((uintptr_t)p);
    if (it == rt().allocs.end() || it->second.kind != kind) {
        uintptr_t base = 0;
        diag(at, "%s(%p): not the start of a block of %s (it is %s)", call, p,
             kind == MEM_DEVICE ? "device memory" : "pinned memory", kind_name(find(p, &base)));
        return fail(kind == MEM_DEVICE ? cudaErrorInvalidDevicePointer : cudaErrorInvalidValue);
    }
    rt().allocs.erase(it);
    ::free(p);
    return cudaSuccess;
}

cudaError_t cudaFree(void *p, const char *file, int line)
{
    return release(p, MEM_DEVICE, "cudaFree", site{file, line});
}

cudaError_t cudaFreeHost(void *p, const char *file, int line)
{
    return release(p, MEM_PINNED, "cudaFreeHost", site{file, line});
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t s, const char *file,
                            int line)
{
    if (rt().sticky)
        return rt().sticky;
    if (!check_span(site{file, line}, "cudaMemset", "destination", p, bytes, true))
        return fail(cudaErrorInvalidValue);
    enqueue(s, [p, value, bytes] { memset(p, value, bytes); });
    return cudaSuccess;
}

cudaError_t cudaMemset(void *p, int value, size_t bytes, const char *file, int line)
{
    return cudaMemsetAsync(p, value, bytes, 0, file, line);
}

/* Checks a copy's two sides against its direction; false (reported) when they do not match. */
static bool check_copy(site at, const char *call, void *dst, const void *src, size_t bytes,
                       cudaMemcpyKind kind, bool *host_dst, bool *host_src)
{
    uintptr_t base = 0;
    if (kind == cudaMemcpyDefault) {
        const allocation *d = find(dst, &base), *s = find(src, &base);
        const bool dd = d && d->kind == MEM_DEVICE, sd = s && s->kind == MEM_DEVICE;
        kind = dd ? (sd ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                  : (sd ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    }
    if ((int)kind < 0 || (int)kind > 3) {
        diag(at, "%s: invalid direction %d", call, (int)kind);
        return false;
    }
    const bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    const bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    *host_dst = !dst_dev;
    *host_src = !src_dev;
    return check_span(at, call, "destination", dst, bytes, dst_dev) &&
           check_span(at, call, "source", src, bytes, src_dev);
}

static bool is_pinned(const void *p)
{
    uintptr_t base = 0;
    const allocation *a = find(p, &base);
    return a && a->kind == MEM_PINNED;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t s, const char *file, int line)
{
    if (rt().sticky)
        return rt().sticky;
    bool host_dst = false, host_src = false;
    if (!check_copy(site{file, line}, "cudaMemcpyAsync", dst, src, bytes, kind, &host_dst,
                    &host_src))
        return fail(kind == cudaMemcpyDefault ? cudaErrorInvalidValue
                                              : cudaErrorInvalidMemcpyDirection);
    op_ptr o = enqueue(s, [dst, src, bytes] { memmove(dst, src, bytes); });
    /* with pageable (not pinned) host memory the copy is synchronous, as on a GPU */
    if ((host_dst && !is_pinned(dst)) || (host_src && !is_pinned(src)))
        complete(o);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                       const char *file, int line)
{
    if (rt().sticky)
        return rt().sticky;
    bool host_dst = false, host_src = false;
    if (!check_copy(site{file, line}, "cudaMemcpy", dst, src, bytes, kind, &host_dst, &host_src))
        return fail(kind == cudaMemcpyDefault ? cudaErrorInvalidValue
                                              : cudaErrorInvalidMemcpyDirection);
    /* ordered on stream 0 after the work before it; the host waits for it */
    complete(enqueue(0, [dst, src, bytes] { memmove(dst, src, bytes); }));
    return rt().sticky;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags, const char *, int)
{
    CUstream_st *st = new CUstream_st;
    st->flags = flags;
    rt().streams.push_back(st);
    *s = st;
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *s, const char *file, int line)
{
    return cudaStreamCreateWithFlags(s, cudaStreamDefault, file, line);
}

cudaError_t cudaStreamDestroy(cudaStream_t s, const char *file, int line)
{
    if (!s) {
        diag(site{file, line}, "cudaStreamDestroy(0): the default stream cannot be destroyed");
        return fail(cudaErrorInvalidResourceHandle);
    }
    /* its queued work still runs (ops of other streams may wait for it): complete it now */
    complete_stream(s);
    auto &all = rt().streams;
    all.erase(std::remove(all.begin(), all.end(), s), all.end());
    delete s;
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s, const char *, int)
{
    complete_stream(stream_of(s));
    return rt().sticky;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int, const char *file,
                                int line)
{
    if (!e) {
        diag(site{file, line}, "cudaStreamWaitEvent: null event");
        return fail(cudaErrorInvalidResourceHandle);
    }
    enqueue(s, [] {}, e->record);
    return rt().sticky;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags, const char *, int)
{
    CUevent_st *ev = new CUevent_st;
    ev->flags = flags;
    *e = ev;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *e, const char *file, int line)
{
    return cudaEventCreateWithFlags(e, cudaEventDefault, file, line);
}

cudaError_t cudaEventDestroy(cudaEvent_t e, const char *file, int line)
{
    if (!e) {
        diag(site{file, line}, "cudaEventDestroy: null event");
        return fail(cudaErrorInvalidResourceHandle);
    }
    complete(e->record); /* its record op writes the event */
    delete e;
    return cudaSuccess;
}

static double now_ms(void)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - rt().t0)
        .count();
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s, const char *file, int line)
{
    if (!e) {
        diag(site{file, line}, "cudaEventRecord: null event");
        return fail(cudaErrorInvalidResourceHandle);
    }
    e->record = enqueue(s, [e] { e->t_ms = now_ms(); });
    return rt().sticky;
}

cudaError_t cudaEventSynchronize(cudaEvent_t e, const char *file, int line)
{
    if (!e) {
        diag(site{file, line}, "cudaEventSynchronize: null event");
        return fail(cudaErrorInvalidResourceHandle);
    }
    complete(e->record);
    return rt().sticky;
}

/* The host asks whether the event has happened: deferred work up to it runs now, so a query
 * loop ends (a GPU would get there by itself). */
cudaError_t cudaEventQuery(cudaEvent_t e, const char *file, int line)
{
    return cudaEventSynchronize(e, file, line);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end, const char *file,
                                 int line)
{
    if (!start || !end || (start->flags & cudaEventDisableTiming) ||
        (end->flags & cudaEventDisableTiming)) {
        diag(site{file, line}, "cudaEventElapsedTime: an event without timing");
        return fail(cudaErrorInvalidResourceHandle);
    }
    if (!start->record || !end->record || !start->record->done || !end->record->done)
        return fail(cudaErrorNotReady);
    *ms = (float)(end->t_ms - start->t_ms);
    return cudaSuccess;
}
