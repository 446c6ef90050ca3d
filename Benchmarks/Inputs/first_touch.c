/* How long 24 MB of fresh memory takes to touch the first time, in huge pages (argument 1: advised
 * MADV_HUGEPAGE) or small ones (0: MADV_NOHUGEPAGE), and the second time; three rounds.
 *     cc -O2 -o first_touch Benchmarks/Inputs/first_touch.c && ./first_touch 1 && ./first_touch 0
 * Run it right after another and a few seconds after one: on a VM that reports free memory to its host,
 * huge pages taken after a pause are faulted in by the host too (BENCHMARKS.md, issue 23, "Output held
 * once a line"). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    const size_t size = 24u << 20, extent = 2u << 20;
    int huge = argc > 1 ? atoi(argv[1]) : 1;
    for (int round = 0; round < 3; round++) {
        char *mapped = mmap(NULL, size + extent, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapped == MAP_FAILED) { perror("mmap"); return 1; }
        char *p = (char *)(((uintptr_t)mapped + extent - 1) & ~(uintptr_t)(extent - 1));
        madvise(p, size, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
        double start = now_ms();
        memset(p, 1, size);
        double first = now_ms();
        memset(p, 2, size);
        double second = now_ms();
        printf("%s pages: first touch %.2f ms, second %.2f ms\n", huge ? "huge" : "small", first - start, second - first);
        munmap(mapped, size + extent);
    }
    return 0;
}
