// The prefetch hint is header-only; the file-origin queries below are compiled here, where
// _GNU_SOURCE and the Linux headers stay out of what Swift imports.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CStoreLedgerSupport.h"
#include <string.h>

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
