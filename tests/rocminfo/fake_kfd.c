/* LD_PRELOAD shim for the rocminfo test: rocminfo refuses to start unless /dev/kfd opens
 * read-write (a check outside the HSA runtime). This redirects that one path to the file named
 * by FAKE_KFD, so the test needs neither a GPU driver nor privileges. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef int (*open_fn)(const char *, int, ...);

static const char *redirect(const char *path) {
  const char *fake = getenv("FAKE_KFD");
  return (fake && path && strcmp(path, "/dev/kfd") == 0) ? fake : path;
}

int open(const char *path, int flags, ...) {
  static open_fn real;
  if (!real) real = (open_fn)dlsym(RTLD_NEXT, "open");
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = va_arg(ap, mode_t);
    va_end(ap);
  }
  return real(redirect(path), flags, mode);
}

int open64(const char *path, int flags, ...) {
  static open_fn real;
  if (!real) real = (open_fn)dlsym(RTLD_NEXT, "open64");
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = va_arg(ap, mode_t);
    va_end(ap);
  }
  return real(redirect(path), flags, mode);
}
