#ifndef CSTORELEDGER_SUPPORT_H
#define CSTORELEDGER_SUPPORT_H

/// Hints the CPU to load the cache line holding `address` for reading.
///
/// Swift has no prefetch builtin; the symbol tables use this to start the cache
/// misses of upcoming look-ups while earlier ones are processed.
static inline void storeledger_prefetch(const void *address) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(address, 0, 3);
#else
  (void)address;
#endif
}

#endif
