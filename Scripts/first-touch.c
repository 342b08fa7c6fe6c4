// What the first write to fresh memory costs on this machine, on 4 KiB pages and on transparent
// huge pages (Docs/performance.md, "Fresh memory on a VM that reports free pages"). Not part of
// the package: `gcc -O2 -o first-touch Scripts/first-touch.c`, then for example
//   for i in 1 2 3; do ./first-touch 0; sleep 3; ./first-touch 1; sleep 3; done
// (the pause lets the kernel hand the previous run's free memory back to the hypervisor, as
// between two commands a user runs; without it, freed pages are reused while still backed).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: first-touch 0|1 [MiB]   (1: advise huge pages)\n");
    return 64;
  }
  int huge = atoi(argv[1]);
  size_t bytes = (size_t)(argc > 2 ? atoi(argv[2]) : 150) << 20;
  double start = seconds();
  char *p = malloc(bytes);
  if (!p) return 71;
  if (huge) {
    uintptr_t hugePage = 2u << 20;
    uintptr_t from = ((uintptr_t)p + hugePage - 1) & ~(hugePage - 1);
    uintptr_t to = ((uintptr_t)p + bytes) & ~(hugePage - 1);
    if (to > from && madvise((void *)from, to - from, MADV_HUGEPAGE) != 0) perror("madvise");
  }
  for (size_t k = 0; k < bytes; k += 64) p[k] = 1;
  double touched = seconds();
  memset(p, 2, bytes);
  double again = seconds();
  printf("huge pages %s: first write of %zu MiB %.3f s, second %.3f s\n", huge ? "advised" : "not advised",
    bytes >> 20, touched - start, again - touched);
  return p[12345] == 3;
}
