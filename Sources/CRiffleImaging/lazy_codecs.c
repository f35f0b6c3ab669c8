/* The codec libraries loaded on first use (lazy_codecs.h): dlopen by soname, every function
 * resolved with dlsym, once per library for the process. */
#define RFI_LAZY_CODECS_DEFINING
#include "lazy_codecs.h"

#include "internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define RFI_LAZY_POINTER_DEFINITION(name) __typeof__(name) *rfi_lazy_##name;
RFI_HEIF_FUNCTIONS(RFI_LAZY_POINTER_DEFINITION)
RFI_DE265_FUNCTIONS(RFI_LAZY_POINTER_DEFINITION)
RFI_JXL_FUNCTIONS(RFI_LAZY_POINTER_DEFINITION)
RFI_JXL_THREADS_FUNCTIONS(RFI_LAZY_POINTER_DEFINITION)
RFI_RAW_FUNCTIONS(RFI_LAZY_POINTER_DEFINITION)

/* A library's load, made once: whether every function resolved, else why not. */
typedef struct rfi_lazy_state {
    pthread_once_t once;
    int loaded;
    char reason[RFI_MESSAGE_CAPACITY];
} rfi_lazy_state;

static rfi_lazy_state rfi_lazy_states[] = {
    [RFI_LAZY_HEIF] = {PTHREAD_ONCE_INIT, 0, ""},
    [RFI_LAZY_DE265] = {PTHREAD_ONCE_INIT, 0, ""},
    [RFI_LAZY_JXL] = {PTHREAD_ONCE_INIT, 0, ""},
    [RFI_LAZY_JXL_THREADS] = {PTHREAD_ONCE_INIT, 0, ""},
    [RFI_LAZY_RAW] = {PTHREAD_ONCE_INIT, 0, ""},
};

/* Opens `soname` (Debian 12's), else `dev_name` (the -dev package's link to whichever version
 * the headers Riffle was built with belong to, for a build on another release), and lets
 * `resolve` fill its pointers; `resolve` names the first function the library lacks, if any.
 * The handle is kept for the process. */
static void rfi_lazy_open(rfi_lazy_library library, const char *soname, const char *dev_name,
                          void (*resolve)(void *, const char **)) {
    rfi_lazy_state *state = &rfi_lazy_states[library];
    const char *opened = soname;
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) handle = dlopen(opened = dev_name, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *error = dlerror();
        snprintf(state->reason, sizeof state->reason, "%s could not be loaded (nor %s): %s", soname, dev_name,
                 error != NULL ? error : "no reason given");
        return;
    }
    const char *missing = NULL;
    resolve(handle, &missing);
    if (missing != NULL) {
        snprintf(state->reason, sizeof state->reason, "%s has no %s", opened, missing);
        return;
    }
    state->loaded = 1;
}

#define RFI_LAZY_RESOLVE(name)                                                                      \
    if ((rfi_lazy_##name = (__typeof__(name) *)dlsym(handle, #name)) == NULL && *missing == NULL) \
        *missing = #name;

/* A library's resolver and its once-routine, for pthread_once. */
#define RFI_LAZY_LIBRARY(library, soname, dev_name, FUNCTIONS)                              \
    static void rfi_lazy_resolve_##library(void *handle, const char **missing) {            \
        FUNCTIONS(RFI_LAZY_RESOLVE)                                                         \
    }                                                                                       \
    static void rfi_lazy_once_##library(void) {                                             \
        rfi_lazy_open(library, soname, dev_name, rfi_lazy_resolve_##library);               \
    }

RFI_LAZY_LIBRARY(RFI_LAZY_HEIF, "libheif.so.1", "libheif.so", RFI_HEIF_FUNCTIONS)
RFI_LAZY_LIBRARY(RFI_LAZY_DE265, "libde265.so.0", "libde265.so", RFI_DE265_FUNCTIONS)
RFI_LAZY_LIBRARY(RFI_LAZY_JXL, "libjxl.so.0.7", "libjxl.so", RFI_JXL_FUNCTIONS)
RFI_LAZY_LIBRARY(RFI_LAZY_JXL_THREADS, "libjxl_threads.so.0.7", "libjxl_threads.so", RFI_JXL_THREADS_FUNCTIONS)
RFI_LAZY_LIBRARY(RFI_LAZY_RAW, "libraw_r.so.20", "libraw_r.so", RFI_RAW_FUNCTIONS)

int rfi_lazy_load(rfi_lazy_library library, char *message, size_t message_capacity) {
    static void (*const onces[])(void) = {
        [RFI_LAZY_HEIF] = rfi_lazy_once_RFI_LAZY_HEIF,
        [RFI_LAZY_DE265] = rfi_lazy_once_RFI_LAZY_DE265,
        [RFI_LAZY_JXL] = rfi_lazy_once_RFI_LAZY_JXL,
        [RFI_LAZY_JXL_THREADS] = rfi_lazy_once_RFI_LAZY_JXL_THREADS,
        [RFI_LAZY_RAW] = rfi_lazy_once_RFI_LAZY_RAW,
    };
    rfi_lazy_state *state = &rfi_lazy_states[library];
    pthread_once(&state->once, onces[library]);
    if (!state->loaded) rfi_set_message(message, message_capacity, state->reason);
    return state->loaded;
}
