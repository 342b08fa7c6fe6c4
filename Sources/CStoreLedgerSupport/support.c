// The prefetch hint is header-only; the file-origin queries below are compiled here, where
// _GNU_SOURCE and the Linux headers stay out of what Swift imports.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CStoreLedgerSupport.h"
#include <signal.h>
#include <sys/resource.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/stat.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#elif defined(__APPLE__)
#include <sys/stat.h>
#endif

int storeledger_file_birth(int descriptor, int64_t *seconds, uint32_t *nanoseconds) {
#if defined(__linux__) && defined(SYS_statx) && defined(STATX_BTIME)
  // Through syscall(2): glibc before 2.28 and musl before 1.2.5 have no statx wrapper.
  struct statx info;
  memset(&info, 0, sizeof info);
  if (syscall(SYS_statx, descriptor, "", AT_EMPTY_PATH, STATX_BTIME, &info) != 0) return 0;
  if ((info.stx_mask & STATX_BTIME) == 0) return 0;
  *seconds = (int64_t)info.stx_btime.tv_sec;
  *nanoseconds = (uint32_t)info.stx_btime.tv_nsec;
#elif defined(__APPLE__)
  struct stat info;
  if (fstat(descriptor, &info) != 0) return 0;
  *seconds = (int64_t)info.st_birthtimespec.tv_sec;
  *nanoseconds = (uint32_t)info.st_birthtimespec.tv_nsec;
#else
  (void)descriptor;
  return 0;
#endif
  // A zero birth time is what filesystems without one (and images made without one) report.
  return *seconds != 0 || *nanoseconds != 0;
}

int storeledger_file_generation(int descriptor, uint32_t *generation) {
#if defined(__linux__) && defined(FS_IOC_GETVERSION)
  // The request is declared with a long, but ext4, XFS and btrfs store an int: read into a
  // zeroed long and keep its first four bytes, the int wherever the kernel wrote one.
  long value = 0;
  if (ioctl(descriptor, FS_IOC_GETVERSION, &value) != 0) return 0;
  memcpy(generation, &value, sizeof *generation);
  return 1;
#else
  (void)descriptor;
  (void)generation;
  return 0;
#endif
}

static char *abort_message = NULL;
static size_t abort_message_length = 0;
static int abort_status = 70;

static void storeledger_on_abort(int signal_number) {
  (void)signal_number;
  size_t written = 0;
  while (written < abort_message_length) {
    ssize_t n = write(2, abort_message + written, abort_message_length - written);
    if (n <= 0) break;
    written += (size_t)n;
  }
  _exit(abort_status);
}

void storeledger_report_aborts(const char *message, int status) {
  // Copied before the handler is installed: it reads these from then on and never frees them.
  abort_message = strdup(message);
  abort_message_length = abort_message == NULL ? 0 : strlen(abort_message);
  abort_status = status;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = storeledger_on_abort;
  sigemptyset(&action.sa_mask);
  sigaction(SIGABRT, &action, NULL);
}

int64_t storeledger_fit_allocator_to_address_limit(void) {
  struct rlimit limit;
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return -1;
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
  mallopt(M_ARENA_MAX, 1);
#endif
  return limit.rlim_cur > (rlim_t)INT64_MAX ? INT64_MAX : (int64_t)limit.rlim_cur;
}
