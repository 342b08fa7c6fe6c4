// SHA-256 block compression with the CPU's SHA instructions; see CStoreLedgerSHA.h.
// Each architecture's code is compiled for its instructions with a per-function target
// attribute, so the rest of the package keeps the baseline instruction set and the choice is
// made at run time by storeledger_sha256_hw_available().

#include "CStoreLedgerSHA.h"

#if defined(__x86_64__) || defined(__aarch64__)

/// The round constants K (FIPS 180-4 section 4.2.2), four per vector step.
static const uint32_t storeledger_sha256_k[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#endif

#if defined(__x86_64__)

// ---------------------------------------------------------------------------------------------
// x86_64: the SHA extensions (SHA-NI), following Intel's reference sequence.

#include <cpuid.h>
#include <immintrin.h>

int storeledger_sha256_hw_available(void) {
  unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
  const unsigned int ssse3 = 1u << 9, sse41 = 1u << 19;  // CPUID.1:ECX
  if ((ecx & ssse3) == 0 || (ecx & sse41) == 0) return 0;
  // __get_cpuid_count checks the highest leaf itself, so older CPUs without leaf 7 report 0.
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
  const unsigned int sha = 1u << 29;  // CPUID.(EAX=7,ECX=0):EBX
  return (ebx & sha) != 0;
}

#define STORELEDGER_X86_SHA __attribute__((target("sha,sse4.1,ssse3")))

// Unaligned 16-byte loads and stores; going through void keeps the casts warning-free.
STORELEDGER_X86_SHA
static inline __m128i storeledger_load(const void *from) {
  return _mm_loadu_si128((const __m128i *)from);
}

STORELEDGER_X86_SHA
static inline void storeledger_store(void *to, __m128i value) {
  _mm_storeu_si128((__m128i *)to, value);
}

// Four rounds: `msg` holds W[t..t+3]; SHA256RNDS2 does two rounds with the low two words of its
// third operand, so the sum is shifted down for the second pair.
#define STORELEDGER_ROUNDS4(msg, t)                                                       \
  do {                                                                                    \
    __m128i wk_ = _mm_add_epi32((msg), storeledger_load(&k[(t)]));                        \
    cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk_);                                        \
    abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk_, 0x0E));               \
  } while (0)

// The next four schedule words from the previous sixteen, overwriting the oldest four:
// W[t] = W[t-16] + s0(W[t-15]) (MSG1), + W[t-7] (the ALIGNR), + s1(W[t-2]) (MSG2).
#define STORELEDGER_SCHEDULE(w0, w1, w2, w3)                                               \
  (w0) = _mm_sha256msg2_epu32(                                                            \
    _mm_add_epi32(_mm_sha256msg1_epu32((w0), (w1)), _mm_alignr_epi8((w3), (w2), 4)), (w3))

STORELEDGER_X86_SHA
void storeledger_sha256_hw_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
  const uint32_t *k = storeledger_sha256_k;
  // Message words are big-endian; this shuffle swaps the bytes of each 32-bit lane.
  const __m128i byteswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);

  // The instructions keep the state as ABEF and CDGH, A in the top lane.
  __m128i tmp = storeledger_load(&state[0]);   // lanes, low to high: A B C D
  __m128i cdgh = storeledger_load(&state[4]);  // E F G H
  tmp = _mm_shuffle_epi32(tmp, 0xB1);          // B A D C
  cdgh = _mm_shuffle_epi32(cdgh, 0x1B);        // H G F E
  __m128i abef = _mm_alignr_epi8(tmp, cdgh, 8);  // F E B A
  cdgh = _mm_blend_epi16(cdgh, tmp, 0xF0);       // H G D C

  for (; blocks > 0; blocks--, data += 64) {
    const __m128i abef_saved = abef, cdgh_saved = cdgh;

    __m128i w0 = _mm_shuffle_epi8(storeledger_load(data + 0), byteswap);
    __m128i w1 = _mm_shuffle_epi8(storeledger_load(data + 16), byteswap);
    __m128i w2 = _mm_shuffle_epi8(storeledger_load(data + 32), byteswap);
    __m128i w3 = _mm_shuffle_epi8(storeledger_load(data + 48), byteswap);

    STORELEDGER_ROUNDS4(w0, 0);
    STORELEDGER_ROUNDS4(w1, 4);
    STORELEDGER_ROUNDS4(w2, 8);
    STORELEDGER_ROUNDS4(w3, 12);
    for (int t = 16; t < 64; t += 16) {
      STORELEDGER_SCHEDULE(w0, w1, w2, w3);
      STORELEDGER_ROUNDS4(w0, t);
      STORELEDGER_SCHEDULE(w1, w2, w3, w0);
      STORELEDGER_ROUNDS4(w1, t + 4);
      STORELEDGER_SCHEDULE(w2, w3, w0, w1);
      STORELEDGER_ROUNDS4(w2, t + 8);
      STORELEDGER_SCHEDULE(w3, w0, w1, w2);
      STORELEDGER_ROUNDS4(w3, t + 12);
    }

    abef = _mm_add_epi32(abef, abef_saved);
    cdgh = _mm_add_epi32(cdgh, cdgh_saved);
  }

  tmp = _mm_shuffle_epi32(abef, 0x1B);      // A B E F
  cdgh = _mm_shuffle_epi32(cdgh, 0xB1);     // G H C D
  abef = _mm_blend_epi16(tmp, cdgh, 0xF0);  // A B C D
  cdgh = _mm_alignr_epi8(cdgh, tmp, 8);     // E F G H
  storeledger_store(&state[0], abef);
  storeledger_store(&state[4], cdgh);
}

#elif defined(__aarch64__)

// ---------------------------------------------------------------------------------------------
// arm64: the ARMv8 Cryptography Extension's SHA-256 instructions.

#include <arm_neon.h>

#if defined(__APPLE__)

// Every arm64 CPU Apple ships (A7 onwards, all M-series) has the SHA2 instructions.
int storeledger_sha256_hw_available(void) { return 1; }

#elif defined(__linux__)

#include <sys/auxv.h>
#ifndef HWCAP_SHA2
#define HWCAP_SHA2 (1UL << 6)  // the arm64 Linux kernel ABI value, for C libraries that lack it
#endif

int storeledger_sha256_hw_available(void) {
  return (getauxval(AT_HWCAP) & HWCAP_SHA2) != 0;
}

#else

int storeledger_sha256_hw_available(void) { return 0; }

#endif

#if defined(__clang__) || defined(__GNUC__)
#define STORELEDGER_ARM_SHA __attribute__((target("+sha2")))
#else
#define STORELEDGER_ARM_SHA
#endif

// Four rounds: `msg` holds W[t..t+3]; SHA256H updates ABCD and SHA256H2 EFGH, both from the
// ABCD and EFGH that went in.
#define STORELEDGER_ROUNDS4(msg, t)                                                       \
  do {                                                                                    \
    const uint32x4_t wk_ = vaddq_u32((msg), vld1q_u32(&k[(t)]));                          \
    const uint32x4_t abcd_ = abcd;                                                        \
    abcd = vsha256hq_u32(abcd, efgh, wk_);                                                \
    efgh = vsha256h2q_u32(efgh, abcd_, wk_);                                              \
  } while (0)

// The next four schedule words from the previous sixteen, overwriting the oldest four:
// SHA256SU0 adds s0(W[t-15]) to W[t-16], SHA256SU1 adds W[t-7] and s1(W[t-2]).
#define STORELEDGER_SCHEDULE(w0, w1, w2, w3) \
  (w0) = vsha256su1q_u32(vsha256su0q_u32((w0), (w1)), (w2), (w3))

STORELEDGER_ARM_SHA
static inline uint32x4_t storeledger_load_be(const uint8_t *bytes) {
  return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(bytes)));
}

STORELEDGER_ARM_SHA
void storeledger_sha256_hw_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
  const uint32_t *k = storeledger_sha256_k;
  uint32x4_t abcd = vld1q_u32(&state[0]);
  uint32x4_t efgh = vld1q_u32(&state[4]);

  for (; blocks > 0; blocks--, data += 64) {
    const uint32x4_t abcd_saved = abcd, efgh_saved = efgh;

    uint32x4_t w0 = storeledger_load_be(data + 0);
    uint32x4_t w1 = storeledger_load_be(data + 16);
    uint32x4_t w2 = storeledger_load_be(data + 32);
    uint32x4_t w3 = storeledger_load_be(data + 48);

    STORELEDGER_ROUNDS4(w0, 0);
    STORELEDGER_ROUNDS4(w1, 4);
    STORELEDGER_ROUNDS4(w2, 8);
    STORELEDGER_ROUNDS4(w3, 12);
    for (int t = 16; t < 64; t += 16) {
      STORELEDGER_SCHEDULE(w0, w1, w2, w3);
      STORELEDGER_ROUNDS4(w0, t);
      STORELEDGER_SCHEDULE(w1, w2, w3, w0);
      STORELEDGER_ROUNDS4(w1, t + 4);
      STORELEDGER_SCHEDULE(w2, w3, w0, w1);
      STORELEDGER_ROUNDS4(w2, t + 8);
      STORELEDGER_SCHEDULE(w3, w0, w1, w2);
      STORELEDGER_ROUNDS4(w3, t + 12);
    }

    abcd = vaddq_u32(abcd, abcd_saved);
    efgh = vaddq_u32(efgh, efgh_saved);
  }

  vst1q_u32(&state[0], abcd);
  vst1q_u32(&state[4], efgh);
}

#else

// ---------------------------------------------------------------------------------------------
// Other architectures: no hardware path; the Swift rounds do all the work.

#include <stdlib.h>

int storeledger_sha256_hw_available(void) { return 0; }

void storeledger_sha256_hw_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
  (void)state;
  (void)data;
  (void)blocks;
  abort();
}

#endif
