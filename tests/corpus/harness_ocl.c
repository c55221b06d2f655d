/* The OpenCL back end of the corpus harness, used only to validate the cases and their host
 * references on the host CPU (PoCL) independently of softhsa: argv[1] is the kernel's .cl source,
 * compiled with -DCORPUS_OPENCL so that kernels/corpus.h maps onto OpenCL built-ins. */
#define CL_TARGET_OPENCL_VERSION 300
#include "harness_internal.h"

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_ALLOCS 64

struct corpus {
    struct corpus_base base;
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
    cl_device_id dev;
    void *host[MAX_ALLOCS];
    cl_mem mem[MAX_ALLOCS];
    size_t bytes[MAX_ALLOCS];
    unsigned nallocs;
};

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return s;
}

corpus_t *corpus_backend_open(const char *program, const char *object) {
    struct corpus *c = calloc(1, sizeof *c);
    c->base.program = program;
    c->base.object = object;
    c->base.rng = 0x9E3779B97F4A7C15ULL;
    for (const char *p = program; *p; p++)
        c->base.rng = (c->base.rng ^ (uint8_t)*p) * 0x100000001B3ULL;
    cl_platform_id plat;
    cl_int err = clGetPlatformIDs(1, &plat, NULL);
    if (!err)
        err = clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &c->dev, NULL);
    if (!err)
        c->ctx = clCreateContext(NULL, 1, &c->dev, NULL, NULL, &err);
    if (!err)
        c->q = clCreateCommandQueueWithProperties(c->ctx, c->dev, NULL, &err);
    size_t len = 0;
    char *src = err ? NULL : slurp(object, &len);
    if (!src) {
        fprintf(stderr, "%s: OpenCL setup failed (%d) or cannot read %s\n", program, err, object);
        return NULL;
    }
    c->prog = clCreateProgramWithSource(c->ctx, 1, (const char **)&src, &len, &err);
    char opts[4096];
    const char *slash = strrchr(object, '/');
    int dirlen = slash ? (int)(slash - object) : 1;
    snprintf(opts, sizeof opts, "-cl-std=CL2.0 -DCORPUS_OPENCL -I%.*s", dirlen,
             slash ? object : ".");
    if (!err)
        err = clBuildProgram(c->prog, 1, &c->dev, opts, NULL, NULL);
    if (err) {
        char log[16384] = "";
        clGetProgramBuildInfo(c->prog, c->dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "%s: build of %s failed (%d):\n%s\n", program, object, err, log);
        return NULL;
    }
    free(src);
    return c;
}

void corpus_backend_close(corpus_t *c) {
    for (unsigned i = 0; i < c->nallocs; i++) {
        clReleaseMemObject(c->mem[i]);
        free(c->host[i]);
    }
    clReleaseProgram(c->prog);
    clReleaseCommandQueue(c->q);
    clReleaseContext(c->ctx);
    free(c);
}

void *corpus_alloc(corpus_t *c, size_t bytes) {
    size_t rounded = (bytes + 255) & ~(size_t)255;
    void *p = aligned_alloc(256, rounded);
    cl_int err = p ? 0 : -1;
    if (p) {
        memset(p, 0, rounded);
        c->mem[c->nallocs] =
            clCreateBuffer(c->ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, rounded, p, &err);
    }
    if (err || c->nallocs == MAX_ALLOCS) {
        fprintf(stderr, "%s: buffer allocation failed\n", c->base.program);
        exit(2);
    }
    c->host[c->nallocs] = p;
    c->bytes[c->nallocs++] = rounded;
    return p;
}

int corpus_new_queue(corpus_t *c) {
    (void)c;
    return 0;
}

unsigned corpus_code_object_version(corpus_t *c) {
    (void)c;
    return 0;
}

uint64_t corpus_hsa_gpu_agent(corpus_t *c) {
    (void)c;
    return 0;
}

int corpus_run(corpus_t *c, const char *kernel, unsigned dims, const size_t grid[3],
               const size_t wg[3], const corpus_arg *args, unsigned nargs) {
    cl_int err;
    cl_kernel k = clCreateKernel(c->prog, kernel, &err);
    if (err) {
        fprintf(stderr, "%s: no kernel %s (%d)\n", c->base.program, kernel, err);
        return err;
    }
    for (unsigned i = 0; i < nargs && !err; i++) {
        if (args[i].kind == CORPUS_ARG_BUFFER) {
            unsigned j = 0;
            while (j < c->nallocs && c->host[j] != args[i].buf)
                j++;
            if (j == c->nallocs) {
                fprintf(stderr, "%s: argument %u is not a corpus buffer\n", c->base.program, i);
                return -1;
            }
            err = clSetKernelArg(k, i, sizeof(cl_mem), &c->mem[j]);
        } else {
            err = clSetKernelArg(k, i, args[i].size, args[i].val.bytes);
        }
    }
    /* PoCL has no non-uniform work-groups: round the grid up. Kernels bound-check against an
     * explicit size, so only c_gsize() differs from the HSA run (see corpus_grid_rounded). */
    size_t rounded[3];
    for (unsigned d = 0; d < dims; d++)
        rounded[d] = (grid[d] + wg[d] - 1) / wg[d] * wg[d];
    if (!err)
        err = clEnqueueNDRangeKernel(c->q, k, dims, NULL, rounded, wg, 0, NULL, NULL);
    /* Map each buffer once so that the host pointer holds the device's view. */
    for (unsigned j = 0; j < c->nallocs && !err; j++) {
        void *m = clEnqueueMapBuffer(c->q, c->mem[j], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                     c->bytes[j], 0, NULL, NULL, &err);
        if (!err && m != c->host[j])
            memcpy(c->host[j], m, c->bytes[j]);
        if (!err)
            err = clEnqueueUnmapMemObject(c->q, c->mem[j], m, 0, NULL, NULL);
    }
    if (!err)
        err = clFinish(c->q);
    clReleaseKernel(k);
    if (err)
        fprintf(stderr, "%s: dispatch of %s failed (%d)\n", c->base.program, kernel, err);
    return err;
}
