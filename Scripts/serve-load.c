/*
 * serve-load: a small, bounded HTTP/1.1 load generator for `storeledger serve` (Docs/serve.md,
 * "Measured"). Dev-time only: not part of the package build.
 *
 *   gcc -O2 -pthread -o /tmp/serve-load Scripts/serve-load.c
 *   /tmp/serve-load PORT SUBJECTS_FILE CLIENTS SECONDS [MAX_REQUESTS] [QUERY | post]
 *
 * CLIENTS threads each keep one connection to 127.0.0.1:PORT alive and ask
 * GET /v1/subjects/{id}?at=2026-03-DD (or ?QUERY&at=... when QUERY is given) for random subjects
 * of SUBJECTS_FILE (one id per line), until SECONDS pass or MAX_REQUESTS were answered in all.
 * With `post`, each request is instead POST /v1/events of one new `coins.100` purchase by a
 * random subject (the line `storeledger-bench --appends` appends in-process), to compare rates.
 * Prints one JSON line: requests, errors, requests/s, latency percentiles in ms, and the CPU
 * time this process used (so a reader can see what share of the cores the clients took).
 * Loopback only: the address is fixed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { latenciesMax = 4000000, bufferBytes = 1 << 20 };

static char **subjects;
static size_t subjectCount;
static int port;
static double deadline;
static long requestsMax;
static const char *extraQuery = "";
static int posts;
static atomic_long answered;
static atomic_long errors;

typedef struct {
  unsigned seed;
  double *latencies;
  size_t count;
  size_t capacity;
} Client;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static int connectLoopback(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
    close(fd);
    return -1;
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

/* Percent-encodes everything but unreserved characters into out (at least 3*len+1 bytes). */
static void encode(const char *in, char *out) {
  static const char hex[] = "0123456789ABCDEF";
  for (; *in; in++) {
    unsigned char c = (unsigned char)*in;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-._~", c)) {
      *out++ = (char)c;
    } else {
      *out++ = '%';
      *out++ = hex[c >> 4];
      *out++ = hex[c & 15];
    }
  }
  *out = 0;
}

/* Reads one answer with Content-Length; returns its status, or -1 when the connection failed.
 * Sets *closing when the server says it closes the connection after this answer. */
static int readAnswer(int fd, char *buffer, int *closing) {
  size_t have = 0;
  char *end = NULL;
  while (!(end = memmem(buffer, have, "\r\n\r\n", 4))) {
    if (have == bufferBytes) return -1;
    ssize_t got = read(fd, buffer + have, bufferBytes - have);
    if (got <= 0) return -1;
    have += (size_t)got;
  }
  int status = atoi(buffer + 9);
  size_t headerBytes = (size_t)(end - buffer) + 4;
  char *length = memmem(buffer, headerBytes, "Content-Length:", 15);
  if (!length) return -1;
  size_t body = strtoul(length + 15, NULL, 10);
  *closing = memmem(buffer, headerBytes, "Connection: close", 17) != NULL;
  if (headerBytes + body > bufferBytes) return -1;
  while (have < headerBytes + body) {
    ssize_t got = read(fd, buffer + have, headerBytes + body - have);
    if (got <= 0) return -1;
    have += (size_t)got;
  }
  return status;
}

static void *run(void *argument) {
  Client *client = argument;
  char *buffer = malloc(bufferBytes);
  char request[4096], encoded[1024];
  int fd = connectLoopback();
  while (fd >= 0 && now() < deadline) {
    if (requestsMax > 0 && atomic_fetch_add(&answered, 1) >= requestsMax) break;
    const char *subject = subjects[rand_r(&client->seed) % subjectCount];
    if (strlen(subject) > 300) continue;
    encode(subject, encoded);
    int day = 1 + rand_r(&client->seed) % 28;
    int length;
    if (posts) {
      char line[1024];
      int bytes = snprintf(
        line, sizeof line,
        "{\"id\":\"load-%p-%zu\",\"type\":\"purchase\",\"subject\":\"%s\",\"at\":\"2026-03-%02dT00:00:00Z\","
        "\"product\":\"coins.100\",\"transaction\":\"load-tx-%p-%zu\",\"quantity\":1}\n",
        (void *)client, client->count, subject, day, (void *)client, client->count);
      length = snprintf(
        request, sizeof request,
        "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n%s", bytes, line);
    } else length = snprintf(
      request, sizeof request, "GET /v1/subjects/%s?%s%sat=2026-03-%02d HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", encoded,
      extraQuery, *extraQuery ? "&" : "", day);
    double started = now();
    int closing = 0;
    if (write(fd, request, (size_t)length) != length || readAnswer(fd, buffer, &closing) != 200) {
      atomic_fetch_add(&errors, 1);
      close(fd);
      fd = connectLoopback();
      continue;
    }
    if (client->count < client->capacity) client->latencies[client->count++] = now() - started;
    /* The server closes a connection after its request limit: open the next one. */
    if (closing) {
      close(fd);
      fd = connectLoopback();
    }
  }
  if (fd >= 0) close(fd);
  free(buffer);
  return NULL;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void readSubjects(const char *path) {
  FILE *file = fopen(path, "r");
  if (!file) {
    perror(path);
    exit(66);
  }
  size_t capacity = 1024;
  subjects = malloc(capacity * sizeof *subjects);
  char line[1024];
  while (fgets(line, sizeof line, file)) {
    line[strcspn(line, "\r\n")] = 0;
    if (!*line) continue;
    if (subjectCount == capacity) subjects = realloc(subjects, (capacity *= 2) * sizeof *subjects);
    subjects[subjectCount++] = strdup(line);
  }
  fclose(file);
  if (subjectCount == 0) {
    fprintf(stderr, "%s: no subjects\n", path);
    exit(65);
  }
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s PORT SUBJECTS_FILE CLIENTS SECONDS [MAX_REQUESTS] [QUERY]\n", argv[0]);
    return 64;
  }
  port = atoi(argv[1]);
  readSubjects(argv[2]);
  int clients = atoi(argv[3]);
  double seconds = atof(argv[4]);
  requestsMax = argc > 5 ? atol(argv[5]) : 0;
  if (argc > 6) extraQuery = argv[6];
  posts = strcmp(extraQuery, "post") == 0;
  if (clients < 1 || clients > 1024 || seconds <= 0 || seconds > 600) {
    fprintf(stderr, "clients 1...1024, seconds up to 600\n");
    return 64;
  }
  Client *all = calloc((size_t)clients, sizeof *all);
  pthread_t *threads = calloc((size_t)clients, sizeof *threads);
  double started = now();
  deadline = started + seconds;
  for (int i = 0; i < clients; i++) {
    all[i].seed = 7u + (unsigned)i * 7919u;
    all[i].capacity = latenciesMax / (size_t)clients;
    all[i].latencies = malloc(all[i].capacity * sizeof(double));
    pthread_create(&threads[i], NULL, run, &all[i]);
  }
  size_t total = 0;
  for (int i = 0; i < clients; i++) {
    pthread_join(threads[i], NULL);
    total += all[i].count;
  }
  double elapsed = now() - started;
  double *latencies = malloc((total ? total : 1) * sizeof(double));
  size_t at = 0;
  for (int i = 0; i < clients; i++) {
    memcpy(latencies + at, all[i].latencies, all[i].count * sizeof(double));
    at += all[i].count;
  }
  qsort(latencies, total, sizeof(double), compare);
#define PERCENTILE(p) (total ? latencies[(size_t)((p) * (double)(total - 1))] * 1000 : 0)
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
  printf(
    "{\"clients\":%d,\"requests\":%zu,\"errors\":%ld,\"seconds\":%.2f,\"requests_per_second\":%.0f,"
    "\"p50_ms\":%.3f,\"p90_ms\":%.3f,\"p99_ms\":%.3f,\"p999_ms\":%.3f,\"max_ms\":%.3f,\"client_cpu_seconds\":%.2f}\n",
    clients, total, atomic_load(&errors), elapsed, total / elapsed, PERCENTILE(0.50), PERCENTILE(0.90), PERCENTILE(0.99),
    PERCENTILE(0.999), PERCENTILE(1.0), cpu);
  return 0;
}
