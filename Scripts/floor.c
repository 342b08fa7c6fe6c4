/*
 * floor: the least work any replay of a log must do, to measure the ceiling of a design
 * (issue 40, step 2; Docs/performance.md, "The floor"). Dev-time only: not part of the package
 * build.
 *
 *   gcc -O2 -pthread -o /tmp/floor Scripts/floor.c
 *   /tmp/floor LOG [THREADS]
 *
 * Reads LOG (THREADS contiguous byte ranges, each cut at a newline, each read with pread in
 * 1 MiB blocks by its own thread; default 1) and finds, on every line, the values of the
 * top-level members `id`, `type`, `subject` and `at`, in any key order: keys are compared only
 * at depth 1, other values (strings with their escapes, nested objects and arrays such as
 * `meta`) are skipped. Nothing is decoded, checked, interned or folded. Prints one line: lines,
 * lines lacking one of the four, and the sum of the lines' hashes of the four values' bytes (the same for
 * any THREADS; it keeps the compiler from dropping the work). Exit 0, or 66 when LOG cannot be read, 64 on bad usage.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { blockBytes = 1 << 20, lineBytesMax = 1 << 20, threadsMax = 16 };

struct range {
  int fd;
  off_t from, to;
  uint64_t lines, incomplete, checksum;
};

/* The end of the string whose opening quote is at p (just past its closing quote). */
static const char *stringEnd(const char *p, const char *end) {
  p++;
  for (;;) {
    const char *q = memchr(p, '"', (size_t)(end - p));
    if (!q) return end;
    /* A quote preceded by an odd number of backslashes is escaped. */
    const char *b = q;
    while (b > p && b[-1] == '\\') b--;
    if (((q - b) & 1) == 0) return q + 1;
    p = q + 1;
  }
}

/* FNV-1a over a value's bytes: cheap, and it makes every byte found count. */
static uint64_t mix(uint64_t h, const char *p, const char *q) {
  for (; p < q; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
  return h;
}

/* Finds the four members of one line; returns how many of them were found. */
static int scanLine(const char *p, const char *end, uint64_t *checksum) {
  int found = 0, depth = 0, expectKey = 0;
  while (p < end) {
    char c = *p;
    if (c == '"') {
      const char *close = stringEnd(p, end);
      if (depth == 1 && expectKey) {
        size_t n = (size_t)(close - p) - 2;
        const char *k = p + 1;
        int wanted = (n == 2 && (memcmp(k, "id", 2) == 0 || memcmp(k, "at", 2) == 0)) ||
                     (n == 4 && memcmp(k, "type", 4) == 0) || (n == 7 && memcmp(k, "subject", 7) == 0);
        p = close;
        while (p < end && (*p == ' ' || *p == ':')) p++;
        if (wanted && p < end && *p == '"') {
          const char *valueEnd = stringEnd(p, end);
          *checksum = mix(*checksum, p + 1, valueEnd - 1);
          found++;
          p = valueEnd;
        }
        expectKey = 0;
        continue;
      }
      p = close;
      continue;
    }
    if (c == '{' || c == '[') {
      depth++;
      expectKey = (c == '{' && depth == 1);
    } else if (c == '}' || c == ']') {
      depth--;
    } else if (c == ',' && depth == 1) {
      expectKey = 1;
    }
    p++;
  }
  return found;
}

static void *scanRange(void *argument) {
  struct range *r = argument;
  char *buffer = malloc(blockBytes + lineBytesMax);
  size_t carry = 0;
  off_t at = r->from;
  while (at < r->to || carry > 0) {
    ssize_t n = 0;
    if (at < r->to) {
      size_t want = (size_t)(r->to - at) < blockBytes ? (size_t)(r->to - at) : blockBytes;
      n = pread(r->fd, buffer + carry, want, at);
      if (n < 0) {
        perror("pread");
        exit(74);
      }
      at += n;
    }
    size_t filled = carry + (size_t)n;
    const char *p = buffer, *end = buffer + filled;
    for (;;) {
      const char *newline = memchr(p, '\n', (size_t)(end - p));
      if (!newline) {
        if (at >= r->to && p < end) newline = end; /* a last line without '\n' */
        else break;
      }
      if (newline > p) {
        r->lines++;
        uint64_t h = 1469598103934665603ull;
        if (scanLine(p, newline, &h) != 4) r->incomplete++;
        r->checksum += h;
      }
      p = newline + 1;
      if (p >= end) break;
    }
    carry = p < end ? (size_t)(end - p) : 0;
    if (carry > lineBytesMax) {
      fprintf(stderr, "floor: a line longer than %d bytes\n", lineBytesMax);
      exit(65);
    }
    memmove(buffer, p, carry);
    if (at >= r->to && n == 0) break;
  }
  free(buffer);
  return NULL;
}

/* The first byte after the newline at or after `guess` (or the file's end). */
static off_t lineStart(int fd, off_t guess, off_t size) {
  char block[4096];
  while (guess < size) {
    ssize_t n = pread(fd, block, sizeof block, guess);
    if (n <= 0) return size;
    char *newline = memchr(block, '\n', (size_t)n);
    if (newline) return guess + (newline - block) + 1;
    guess += n;
  }
  return size;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: floor LOG [THREADS]\n");
    return 64;
  }
  int threads = argc == 3 ? atoi(argv[2]) : 1;
  if (threads < 1 || threads > threadsMax) {
    fprintf(stderr, "floor: THREADS must be 1...%d\n", threadsMax);
    return 64;
  }
  int fd = open(argv[1], O_RDONLY);
  struct stat info;
  if (fd < 0 || fstat(fd, &info) != 0) {
    perror(argv[1]);
    return 66;
  }
  struct range ranges[threadsMax];
  pthread_t ids[threadsMax];
  off_t from = 0;
  for (int i = 0; i < threads; i++) {
    off_t to = i == threads - 1 ? info.st_size : lineStart(fd, info.st_size / threads * (i + 1), info.st_size);
    ranges[i] = (struct range){fd, from, to, 0, 0, 0};
    from = to;
  }
  for (int i = 1; i < threads; i++) pthread_create(&ids[i], NULL, scanRange, &ranges[i]);
  scanRange(&ranges[0]);
  uint64_t lines = ranges[0].lines, incomplete = ranges[0].incomplete, checksum = ranges[0].checksum;
  for (int i = 1; i < threads; i++) {
    pthread_join(ids[i], NULL);
    lines += ranges[i].lines;
    incomplete += ranges[i].incomplete;
    checksum += ranges[i].checksum;
  }
  printf("lines: %llu, lacking id/type/subject/at: %llu, checksum %016llx\n", (unsigned long long)lines,
         (unsigned long long)incomplete, (unsigned long long)checksum);
  return 0;
}
