// SHA-256 compression through the CPU's SHA instructions, for StoreLedger's SHA256 type:
// the x86 SHA extensions (SHA-NI) on x86_64 and the ARMv8 SHA2 instructions on arm64.
// Swift has no portable way to reach either instruction set, so this small C target does it;
// StoreLedger keeps its pure-Swift rounds as the fallback and checks the two against each other.

#ifndef CSTORELEDGERSHA_H
#define CSTORELEDGERSHA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns 1 when `storeledger_sha256_hw_blocks` may be called on this CPU, 0 otherwise.
/// x86_64: CPUID reports SHA, SSE4.1 and SSSE3. arm64: Linux reports HWCAP_SHA2, and every
/// Apple arm64 CPU has the instructions. Any other architecture or system: 0.
int storeledger_sha256_hw_available(void);

/// Runs the SHA-256 compression function (FIPS 180-4) over `blocks` consecutive 64-byte blocks
/// at `data`, updating `state` (H0 through H7, in the specification's order) in place.
/// `data` needs no particular alignment. Only call it when
/// `storeledger_sha256_hw_available()` returned 1; elsewhere it aborts.
void storeledger_sha256_hw_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

#ifdef __cplusplus
}
#endif

#endif
