#ifndef CSTORELEDGER_SUPPORT_H
#define CSTORELEDGER_SUPPORT_H

#include <stdint.h>

/// Hints the CPU to load the cache line holding `address` for reading.
///
/// Swift has no prefetch builtin; the symbol tables use this to start the cache
/// misses of upcoming look-ups while earlier ones are processed.
static inline void storeledger_prefetch(const void *address) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(address, 0, 3);
#else
  (void)address;
/// Makes an abort (SIGABRT: the Swift runtime's failed allocation, above all) write `message` to
/// standard error and exit with `status`, instead of the runtime's backtrace. `message` is copied.
/// The handler only writes and exits, both async-signal-safe.
void storeledger_report_aborts(const char *message, int status);

/// Under an address-space limit (`ulimit -v`), keeps glibc's allocator to one arena: each further
/// arena reserves 64 MiB of address space, and once one cannot be made every small allocation
/// becomes its own mmap, so a limited process crawls for minutes before it fails. Returns the
/// limit in bytes, or -1 when there is none.
int64_t storeledger_fit_allocator_to_address_limit(void);

#endif
}

/// The birth time of the open file `descriptor` (statx STATX_BTIME on Linux, st_birthtimespec on
/// Apple platforms): 1 with `seconds` and `nanoseconds` set, 0 where the filesystem keeps none.
int storeledger_file_birth(int descriptor, int64_t *seconds, uint32_t *nanoseconds);

/// The inode generation number of the open file `descriptor` (FS_IOC_GETVERSION, Linux): 1 with
/// `generation` set, 0 where the filesystem or platform gives none.
int storeledger_file_generation(int descriptor, uint32_t *generation);

/// Makes an abort (SIGABRT: the Swift runtime's failed allocation, above all) write `message` to
/// standard error and exit with `status`, instead of the runtime's backtrace. `message` is copied.
/// The handler only writes and exits, both async-signal-safe.
void storeledger_report_aborts(const char *message, int status);

/// Under an address-space limit (`ulimit -v`), keeps glibc's allocator to one arena: each further
/// arena reserves 64 MiB of address space, and once one cannot be made every small allocation
/// becomes its own mmap, so a limited process crawls for minutes before it fails. Returns the
/// limit in bytes, or -1 when there is none.
int64_t storeledger_fit_allocator_to_address_limit(void);

#endif
