/* A plain, single-threaded retrograde solver for Dodgem n x n (n = 2..5): the yardstick
 * of issue 20 for gamegraph's compiled implicit solve (bench/bench_c_baseline.py).
 *
 *     dodgem_retrograde N VALUES_PATH REMOTENESS_PATH   solve; write int8 values and int16 remoteness
 *     dodgem_retrograde --selfcheck N                   check ranking and (un-)moves agree, every index
 *
 * The ranking is explorer/games/dodgem/kernels.py's, tier first: index = offset[tier]
 * + mover * half[tier] + blue subset rank * C(free squares, r) + red subset rank, where
 * tier = b * n + r for b blue and r red cars, offset[] the prefix sums of the tiers'
 * sizes (2 * half[tier]) in that order, and subsets ranked by the combinatorial number
 * system (the red one among the squares blue leaves free). A board is two bit masks,
 * square = row * n + column, row 0 at the bottom. reference_unrank / reference_rank are
 * kernels.py's unrank / rank line for line; the solver uses unrank / rank, the same
 * functions computed from bit operations and small tables (subsets by rank, ranks of
 * subsets by their low and high squares), and
 * --selfcheck checks the two agree at every index (besides move_count, successors and
 * predecessors against each other). move_count and successors list the same moves in
 * the same order as kernels.py, predecessors the same un-moves (kernels.py lists them in
 * an order of its own since session 20).
 *
 * The algorithm is explorer/kernels/retrograde.py's retrograde_implicit, phase 1
 * (wins and losses by a FIFO queue seeded with the finished positions) and phase 3
 * (what is left is a draw). Dodgem needs no more: valid() is true for every index
 * and terminal() is WIN for every finished position, so there are no invalid
 * indices and no ties (phase 2 would find nothing). Memory:
 *   - one uint16 cell per index: bit 15 = decided; if decided, bit 14 = WIN (else LOSS)
 *     and bits 0..13 the remoteness; if not, the count of moves not yet refuted;
 *   - a FIFO queue of uint32 indices, N entries reserved; only the pages of the decided
 *     positions are ever touched, so draws cost no queue memory.
 * The queue is worked in chunks of up to 64 entries inside one remoteness level: the
 * predecessors of the whole chunk are computed first and their cells prefetched, then
 * applied in FIFO order. Predecessors depend on the index alone, so this does exactly
 * what the one-entry-at-a-time loop does; it only overlaps the cache misses.
 *
 * Output, in gamegraph's encoding (explorer/implicit.py): values int8 (LOSS 0, DRAW 1,
 * TIE 2, WIN 3, INVALID -2), remoteness int16 (-1 for draws), raw, native byte order,
 * one per index. Then one JSON line on stdout: CPU and wall seconds (the seeding pass,
 * the solve, the whole run), peak RSS (getrusage; and VmHWM, this program's own, since
 * Linux's ru_maxrss carries over the parent's peak across fork and exec), counts.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, also under a strict -std */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define MAX_N 5
#define MAX_CELLS (MAX_N * MAX_N)
#define MAX_MOVES (3 * (MAX_N - 1))
#define MAX_UNMOVES (3 * (MAX_N - 1) + MAX_N)
#define CHUNK 64
#define LOW_BITS 13

/* gamegraph's value codes (explorer.core.values.Value) */
#define LOSS 0
#define DRAW 1
#define WIN 3

#define DECIDED 0x8000u
#define WIN_BIT 0x4000u
#define REMOTENESS_MASK 0x3FFFu
#define MAX_REMOTENESS 0x3FFF /* what the cell holds; int16 output holds more */

typedef struct {
    int n, cells;
    int64_t size;                           /* indices: every tier's */
    int64_t offset[MAX_CELLS + 1];          /* tier b * n + r's first index */
    int64_t half[MAX_CELLS];                /* a tier's boards per mover: C(cells, b) * C(cells - b, r) */
    int64_t binom[MAX_CELLS + 1][MAX_N + 1];
    /* for the fast ranking */
    uint64_t board;                          /* every square */
    int8_t row_of[MAX_CELLS], col_of[MAX_CELLS]; /* a square's row and column, without a division */
    uint32_t *subset[MAX_N];                 /* the subsets of `size` squares, by rank */
    /* a subset's rank in two look-ups: its squares below LOW_BITS, then the rest given how
     * many squares lie below (ranks of at most n-1 squares are below C(25, 4) = 12,650) */
    uint16_t low_rank[1 << LOW_BITS];
    uint16_t high_rank[MAX_N][1 << (MAX_CELLS - LOW_BITS)];
} Context;

/* The next larger mask with as many bits set (Gosper's hack): k-subsets in increasing
 * numeric order are the combinatorial number system's order, i.e. rank order. */
static uint64_t next_subset(uint64_t mask) {
    uint64_t ripple = mask + (mask & -mask);
    return ripple | ((mask ^ ripple) >> (2 + __builtin_ctzll(mask)));
}

/* The low bits of `bits` placed, in order, on the set bits of `where`. */
static uint64_t deposit(uint64_t bits, uint64_t where) {
#ifdef __BMI2__
    return __builtin_ia32_pdep_di(bits, where);
#else
    uint64_t out = 0;
    for (; where && bits; bits >>= 1, where &= where - 1)
        if (bits & 1) out |= where & -where;
    return out;
#endif
}

/* The bits of `bits` on the set bits of `where`, packed to the low end (deposit's inverse). */
static uint64_t extract(uint64_t bits, uint64_t where) {
#ifdef __BMI2__
    return __builtin_ia32_pext_di(bits, where);
#else
    uint64_t out = 0;
    for (uint64_t bit = 1; where; bit <<= 1, where &= where - 1)
        if (bits & where & -where) out |= bit;
    return out;
#endif
}

static int64_t choose(int s, int i) {
    if (i < 0 || i > s) return 0;
    int64_t c = 1;
    for (int k = 1; k <= i; k++) c = c * (s - k + 1) / k;
    return c;
}

/* The rank terms of the squares of `mask` (shifted up by `offset`
 * squares), the first of them being the (below + 1)-th square of the subset. */
static int64_t rank_terms(uint64_t mask, int offset, int below) {
    int64_t rank = 0;
    for (int i = below + 1; mask; i++, mask &= mask - 1) rank += choose(__builtin_ctzll(mask) + offset, i);
    return rank;
}

static void context(Context *ctx, int n) {
    memset(ctx, 0, sizeof *ctx);
    ctx->n = n;
    ctx->cells = n * n;
    int64_t size = 0;
    for (int b = 0; b < n; b++)
        for (int r = 0; r < n; r++) {
            ctx->offset[b * n + r] = size;
            ctx->half[b * n + r] = choose(ctx->cells, b) * choose(ctx->cells - b, r);
            size += 2 * ctx->half[b * n + r];
        }
    ctx->offset[n * n] = size;
    ctx->size = size;
    for (int s = 0; s <= ctx->cells; s++)
        for (int i = 0; i <= n; i++) ctx->binom[s][i] = choose(s, i);
    ctx->board = (1ull << ctx->cells) - 1;
    for (int square = 0; square < ctx->cells; square++) {
        ctx->row_of[square] = (int8_t)(square / n);
        ctx->col_of[square] = (int8_t)(square % n);
    }
    for (int size = 0; size < n; size++) { /* increasing masks = the combinatorial number system's order */
        int64_t count = choose(ctx->cells, size);
        ctx->subset[size] = malloc(count * sizeof(uint32_t));
        if (!ctx->subset[size]) {
            fprintf(stderr, "dodgem_retrograde: out of memory for the subset tables\n");
            exit(1);
        }
        uint64_t mask = (1ull << size) - 1;
        for (int64_t k = 0; k < count; k++, mask = size ? next_subset(mask) : 0) ctx->subset[size][k] = (uint32_t)mask;
    }
    /* Only subsets of at most n-1 squares are ranked; the other entries are never read. */
    for (uint64_t low = 0; low < (1u << LOW_BITS); low++)
        if (__builtin_popcountll(low) < n) ctx->low_rank[low] = (uint16_t)rank_terms(low, 0, 0);
    for (int below = 0; below < n; below++)
        for (uint64_t high = 0; high < (1u << (MAX_CELLS - LOW_BITS)); high++)
            if (below + __builtin_popcountll(high) < n)
                ctx->high_rank[below][high] = (uint16_t)rank_terms(high, LOW_BITS, below);
}

static void free_context(Context *ctx) {
    for (int size = 0; size < ctx->n; size++) free(ctx->subset[size]);
}

static uint64_t reference_subset_unrank(const Context *ctx, int64_t rank, int size) {
    uint64_t mask = 0;
    int s = ctx->cells;
    for (int i = size; i > 0; i--) {
        s -= 1;
        while (ctx->binom[s][i] > rank) s -= 1;
        rank -= ctx->binom[s][i];
        mask |= 1ull << s;
    }
    return mask;
}

/* kernels.py's unrank, line for line: (mover, blue mask, red mask) of an index. */
static void reference_unrank(const Context *ctx, int64_t index, int *mover, uint64_t *blue, uint64_t *red) {
    int n = ctx->n, cells = ctx->cells;
    int b = n - 1;
    while (ctx->offset[b * n] > index) b--;
    int r = n - 1;
    while (ctx->offset[b * n + r] > index) r--;
    int tier = b * n + r;
    int64_t q = index - ctx->offset[tier];
    *mover = (int)(q / ctx->half[tier]);
    q -= *mover * ctx->half[tier];
    int64_t red_sets = ctx->binom[cells - b][r];
    int64_t blue_rank = q / red_sets;
    int64_t red_index = q - blue_rank * red_sets;
    uint64_t blue_mask = reference_subset_unrank(ctx, blue_rank, b);
    uint64_t relative = reference_subset_unrank(ctx, red_index, r);
    uint64_t red_mask = 0;
    int j = 0;
    for (int s = 0; s < cells; s++) {
        if ((blue_mask >> s) & 1) continue;
        if ((relative >> j) & 1) red_mask |= 1ull << s;
        j++;
    }
    *blue = blue_mask;
    *red = red_mask;
}

/* kernels.py's rank, line for line. */
static int64_t reference_rank(const Context *ctx, int mover, uint64_t blue, uint64_t red) {
    int cells = ctx->cells;
    int64_t blue_rank = 0, red_rank = 0;
    int b = 0, r = 0, j = 0;
    for (int s = 0; s < cells; s++) {
        if ((blue >> s) & 1) {
            b++;
            blue_rank += ctx->binom[s][b];
            continue;
        }
        if ((red >> s) & 1) {
            r++;
            red_rank += ctx->binom[j][r];
        }
        j++;
    }
    int tier = b * ctx->n + r;
    return ctx->offset[tier] + mover * ctx->half[tier] + blue_rank * ctx->binom[cells - b][r] + red_rank;
}

/* The same as reference_unrank: the subsets come from the table, the red cars are put on
 * the free squares by a bit deposit. */
static inline void unrank(const Context *ctx, int64_t index, int *mover, uint64_t *blue, uint64_t *red) {
    int n = ctx->n;
    int b = n - 1;
    while (ctx->offset[b * n] > index) b--;
    int r = n - 1;
    while (ctx->offset[b * n + r] > index) r--;
    int tier = b * n + r;
    uint32_t q = (uint32_t)(index - ctx->offset[tier]); /* below 2^32: main checks the index space */
    uint32_t half = (uint32_t)ctx->half[tier];
    *mover = q >= half; /* a comparison, not a division */
    q -= *mover ? half : 0;
    uint32_t red_sets = (uint32_t)ctx->binom[ctx->cells - b][r];
    uint32_t blue_rank = q / red_sets;
    *blue = ctx->subset[b][blue_rank];
    *red = deposit(ctx->subset[r][q - blue_rank * red_sets], ctx->board & ~*blue);
}

/* Rank of a set among the sets of its size: the sum of C(square, i) over its i-th squares. */
static inline int64_t subset_rank(const Context *ctx, uint64_t mask) {
    uint64_t low = mask & ((1u << LOW_BITS) - 1);
    return ctx->low_rank[low] + ctx->high_rank[__builtin_popcountll(low)][mask >> LOW_BITS];
}

/* The same as reference_rank, over the set bits only. */
static inline int64_t rank(const Context *ctx, int mover, uint64_t blue, uint64_t red) {
    int b = __builtin_popcountll(blue), r = __builtin_popcountll(red);
    int tier = b * ctx->n + r;
    uint64_t relative = extract(red, ctx->board & ~blue);
    return ctx->offset[tier] + mover * ctx->half[tier] + subset_rank(ctx, blue) * ctx->binom[ctx->cells - b][r] +
           subset_rank(ctx, relative);
}

/* Forward (direction 0) and the two sideways steps, as (row step, column step):
 * Blue right, up, down; Red up, left, right (explorer/games/dodgem/rules.py). */
static const int STEP_ROW[2][3] = {{0, 1, -1}, {1, 0, 0}};
static const int STEP_COL[2][3] = {{1, 0, 0}, {0, -1, 1}};

/* Moves of a finished-or-not position: empty targets in reach, plus driving off the far edge. */
static int move_count(const Context *ctx, int mover, uint64_t blue, uint64_t red) {
    int n = ctx->n;
    uint64_t occupied = blue | red;
    uint64_t mine = mover == 0 ? blue : red;
    int count = 0;
    for (uint64_t left = mine; left; left &= left - 1) { /* the cars, by square */
        int s = __builtin_ctzll(left);
        int row = ctx->row_of[s], col = ctx->col_of[s];
        if (mover == 0) {
            count += col == n - 1 ? 1 : 1 - (int)((occupied >> (s + 1)) & 1);
            count += row == n - 1 ? 0 : 1 - (int)((occupied >> (s + n)) & 1);
            count += row == 0 ? 0 : 1 - (int)((occupied >> (s - n)) & 1);
        } else {
            count += row == n - 1 ? 1 : 1 - (int)((occupied >> (s + n)) & 1);
            count += col == 0 ? 0 : 1 - (int)((occupied >> (s - 1)) & 1);
            count += col == n - 1 ? 0 : 1 - (int)((occupied >> (s + 1)) & 1);
        }
    }
    return count;
}

/* The successors' indices, in kernels.py's `_moves` order (used by --selfcheck). */
static int successors(const Context *ctx, int64_t index, int64_t *out) {
    int n = ctx->n, mover;
    uint64_t blue, red;
    unrank(ctx, index, &mover, &blue, &red);
    uint64_t occupied = blue | red;
    uint64_t mine = mover == 0 ? blue : red;
    int count = 0;
    for (uint64_t left = mine; left; left &= left - 1) { /* the cars, by square */
        int s = __builtin_ctzll(left);
        int row = ctx->row_of[s], col = ctx->col_of[s];
        for (int d = 0; d < 3; d++) {
            int r = row + STEP_ROW[mover][d], c = col + STEP_COL[mover][d];
            int target;
            if (d == 0 && (r == n || c == n)) {
                target = -1; /* drives off the board */
            } else if (r >= 0 && r < n && c >= 0 && c < n) {
                target = r * n + c;
                if ((occupied >> target) & 1) continue;
            } else {
                continue;
            }
            uint64_t moved = mine & ~(1ull << s);
            if (target >= 0) moved |= 1ull << target;
            out[count++] = mover == 0 ? rank(ctx, 1, moved, red) : rank(ctx, 0, blue, moved);
        }
    }
    return count;
}

/* Un-moves: a car of the previous mover steps back, or drives back on past its far edge. */
static int predecessors(const Context *ctx, int mover, uint64_t blue, uint64_t red, int64_t *out) {
    int n = ctx->n;
    int previous = 1 - mover;
    uint64_t occupied = blue | red;
    uint64_t mine = previous == 0 ? blue : red;
    int count = 0, cars = 0;
    for (uint64_t left = mine; left; left &= left - 1) { /* the cars, by square */
        int s = __builtin_ctzll(left);
        cars++;
        int row = ctx->row_of[s], col = ctx->col_of[s];
        for (int d = 0; d < 3; d++) {
            int r = row - STEP_ROW[previous][d], c = col - STEP_COL[previous][d];
            if (r >= 0 && r < n && c >= 0 && c < n) {
                int origin = r * n + c;
                if ((occupied >> origin) & 1) continue;
                uint64_t moved = (mine & ~(1ull << s)) | (1ull << origin);
                out[count++] = previous == 0 ? rank(ctx, previous, moved, red) : rank(ctx, previous, blue, moved);
            }
        }
    }
    if (cars < n - 1) {
        for (int k = 0; k < n; k++) {
            int edge = previous == 0 ? k * n + n - 1 : (n - 1) * n + k;
            if ((occupied >> edge) & 1) continue;
            uint64_t moved = mine | (1ull << edge);
            out[count++] = previous == 0 ? rank(ctx, previous, moved, red) : rank(ctx, previous, blue, moved);
        }
    }
    return count;
}

/* Every index in increasing order, as (mover, blue, red), without unranking each:
 * blue count b, red count r (the tier), mover, blue set, red set among the free squares,
 * which is the order of the ranking's terms. Calls visit(index, ...); returns the count. */
typedef void (*Visit)(void *data, int64_t index, int mover, uint64_t blue, uint64_t red);

static inline int64_t for_each_position(const Context *ctx, Visit visit, void *data) {
    int n = ctx->n, cells = ctx->cells;
    uint64_t board = (1ull << cells) - 1;
    int64_t index = 0;
    for (int b = 0; b < n; b++)
        for (int r = 0; r < n; r++)
            for (int mover = 0; mover < 2; mover++) {
                uint64_t blue_end = 1ull << cells;
                for (uint64_t blue = (1ull << b) - 1; blue < blue_end; blue = b ? next_subset(blue) : blue_end) {
                    uint64_t free_squares = board & ~blue;
                    int m = cells - b;
                    for (uint64_t relative = (1ull << r) - 1; relative < (1ull << m);
                         relative = r ? next_subset(relative) : (1ull << m))
                        visit(data, index++, mover, blue, deposit(relative, free_squares));
                }
            }
    return index;
}

static double wall_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static double cpu_now(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6;
}

static long ru_maxrss_bytes(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss * 1024L; /* kilobytes on Linux */
}

/* This program's own peak RSS (Linux's VmHWM); ru_maxrss where there is no /proc. */
static long peak_rss_bytes(void) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    long kilobytes = -1;
    while (status && fgets(line, sizeof line, status))
        if (sscanf(line, "VmHWM: %ld kB", &kilobytes) == 1) break;
    if (status) fclose(status);
    return kilobytes >= 0 ? kilobytes * 1024L : ru_maxrss_bytes();
}

static int parse_size(const char *text) {
    char *end;
    long n = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || n < 2 || n > MAX_N) {
        fprintf(stderr, "dodgem_retrograde: the board size must be 2 to %d, not '%s'\n", MAX_N, text);
        exit(2);
    }
    return (int)n;
}

typedef struct {
    const Context *ctx;
    long failures;
} EnumerationCheck;

static void check_enumerated(void *data, int64_t index, int mover, uint64_t blue, uint64_t red) {
    EnumerationCheck *check = data;
    int mover2;
    uint64_t blue2, red2;
    reference_unrank(check->ctx, index, &mover2, &blue2, &red2);
    if ((mover2 != mover || blue2 != blue || red2 != red) && check->failures++ < 10)
        fprintf(stderr, "selfcheck: position %lld enumerated as (%d, %llx, %llx), unranked as (%d, %llx, %llx)\n",
                (long long)index, mover, (unsigned long long)blue, (unsigned long long)red, mover2,
                (unsigned long long)blue2, (unsigned long long)red2);
}

/* The enumeration visits every index in order; at every index unrank and rank equal
 * kernels.py's (reference_unrank, reference_rank) and invert each other, move_count is
 * the number of successors, and the predecessor edges are exactly the successor edges
 * reversed (each p listed as often as p has moves to i). O(N * moves^2). Returns the
 * number of failures. */
static long selfcheck(const Context *ctx) {
    int64_t size = ctx->size;
    EnumerationCheck check = {ctx, 0};
    int64_t enumerated = for_each_position(ctx, check_enumerated, &check);
    if (enumerated != size) {
        fprintf(stderr, "selfcheck: %lld positions enumerated, %lld indices\n", (long long)enumerated, (long long)size);
        check.failures++;
    }
    long failures = check.failures, edges_forward = 0, edges_back = 0;
    int64_t succ[MAX_MOVES], succ_of_pred[MAX_MOVES], pred[MAX_UNMOVES];
    for (int64_t i = 0; i < size && failures < 10; i++) {
        int mover;
        uint64_t blue, red;
        int reference_mover;
        uint64_t reference_blue, reference_red;
        reference_unrank(ctx, i, &reference_mover, &reference_blue, &reference_red);
        unrank(ctx, i, &mover, &blue, &red);
        if (mover != reference_mover || blue != reference_blue || red != reference_red) {
            fprintf(stderr, "selfcheck: unrank(%lld) differs from kernels.py's\n", (long long)i);
            failures++;
        }
        if (rank(ctx, mover, blue, red) != i || reference_rank(ctx, mover, blue, red) != i) {
            fprintf(stderr, "selfcheck: rank(unrank(%lld)) = %lld, kernels.py's %lld\n", (long long)i,
                    (long long)rank(ctx, mover, blue, red), (long long)reference_rank(ctx, mover, blue, red));
            failures++;
        }
        int moves = successors(ctx, i, succ);
        edges_forward += moves;
        if (moves != move_count(ctx, mover, blue, red)) {
            fprintf(stderr, "selfcheck: index %lld has %d successors but move_count %d\n", (long long)i, moves,
                    move_count(ctx, mover, blue, red));
            failures++;
        }
        int unmoves = predecessors(ctx, mover, blue, red, pred);
        edges_back += unmoves;
        for (int k = 0; k < unmoves; k++) {
            int found = 0, listed = 0;
            int count = successors(ctx, pred[k], succ_of_pred);
            for (int e = 0; e < count; e++) found += succ_of_pred[e] == i;
            for (int e = 0; e < unmoves; e++) listed += pred[e] == pred[k];
            if (found != listed) {
                fprintf(stderr, "selfcheck: %lld listed %d times as a predecessor of %lld, "
                        "which it reaches by %d moves\n", (long long)pred[k], listed, (long long)i, found);
                failures++;
            }
        }
    }
    if (edges_forward != edges_back && failures == 0) {
        fprintf(stderr, "selfcheck: %ld moves but %ld un-moves\n", edges_forward, edges_back);
        failures++;
    }
    printf("{\"n\": %d, \"indices\": %lld, \"moves\": %ld, \"failures\": %ld}\n", ctx->n, (long long)size,
           edges_forward, failures);
    return failures;
}

typedef struct {
    const Context *ctx;
    uint16_t *cell;
    uint32_t *queue;
    int64_t tail;
} Seeding;

/* A position's first cell: decided (a win, remoteness 0, queued) when it has no move, else its move count. */
static void seed(void *data, int64_t index, int mover, uint64_t blue, uint64_t red) {
    Seeding *seeding = data;
    int moves = move_count(seeding->ctx, mover, blue, red);
    if (moves == 0) {
        seeding->cell[index] = DECIDED | WIN_BIT;
        seeding->queue[seeding->tail++] = (uint32_t)index;
    } else {
        seeding->cell[index] = (uint16_t)moves;
    }
}

static void write_all(const char *path, FILE *file, const void *data, size_t bytes) {
    if (fwrite(data, 1, bytes, file) != bytes) {
        fprintf(stderr, "dodgem_retrograde: cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--selfcheck") == 0) {
        Context ctx;
        context(&ctx, parse_size(argv[2]));
        long failures = selfcheck(&ctx);
        free_context(&ctx);
        return failures == 0 ? 0 : 1;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: dodgem_retrograde N VALUES_PATH REMOTENESS_PATH | dodgem_retrograde --selfcheck N\n");
        return 2;
    }
    double wall_start = wall_now(), cpu_start = cpu_now();
    Context ctx;
    context(&ctx, parse_size(argv[1]));
    const int64_t size = ctx.size;
    if (size > (int64_t)UINT32_MAX) {
        fprintf(stderr, "dodgem_retrograde: %lld indices do not fit the uint32 queue\n", (long long)size);
        return 2;
    }
    FILE *value_file = fopen(argv[2], "wb");
    FILE *remoteness_file = value_file ? fopen(argv[3], "wb") : NULL;
    if (!value_file || !remoteness_file) {
        fprintf(stderr, "dodgem_retrograde: cannot open %s: %s\n", value_file ? argv[3] : argv[2], strerror(errno));
        return 1;
    }
    uint16_t *cell = malloc((size_t)size * sizeof *cell);
    uint32_t *queue = malloc((size_t)size * sizeof *queue); /* lazily backed: untouched pages cost nothing */
    if (!cell || !queue) {
        fprintf(stderr, "dodgem_retrograde: out of memory for %lld indices\n", (long long)size);
        return 1;
    }

    /* Seed: finished positions are wins for the player to move, remoteness 0. */
    Seeding seeding = {&ctx, cell, queue, 0};
    for_each_position(&ctx, seed, &seeding);
    int64_t tail = seeding.tail;
    double seed_cpu = cpu_now() - cpu_start;

    /* Phase 1: wins and losses, one remoteness level after the other. */
    int64_t head = 0, level_end = tail;
    int remoteness = 0; /* of the entries from head to level_end */
    static int64_t chunk_preds[CHUNK][MAX_UNMOVES];
    int chunk_count[CHUNK];
    int chunk_lost[CHUNK];
    while (head < tail) {
        if (head == level_end) {
            level_end = tail;
            remoteness++;
        }
        if (remoteness + 1 > MAX_REMOTENESS) {
            fprintf(stderr, "dodgem_retrograde: remoteness above %d does not fit a cell\n", MAX_REMOTENESS);
            return 1;
        }
        int chunk = (int)(level_end - head < CHUNK ? level_end - head : CHUNK);
        for (int j = 0; j < chunk; j++) __builtin_prefetch(&cell[queue[head + j]], 0, 1);
        for (int j = 0; j < chunk; j++) {
            int64_t x = queue[head + j];
            int mover;
            uint64_t blue, red;
            unrank(&ctx, x, &mover, &blue, &red);
            chunk_count[j] = predecessors(&ctx, mover, blue, red, chunk_preds[j]);
            chunk_lost[j] = !(cell[x] & WIN_BIT);
            for (int k = 0; k < chunk_count[j]; k++) __builtin_prefetch(&cell[chunk_preds[j][k]], 1, 1);
        }
        const uint16_t next = (uint16_t)(remoteness + 1);
        for (int j = 0; j < chunk; j++) {
            for (int k = 0; k < chunk_count[j]; k++) {
                int64_t p = chunk_preds[j][k];
                uint16_t c = cell[p];
                if (c & DECIDED) continue;
                if (chunk_lost[j]) {
                    cell[p] = DECIDED | WIN_BIT | next;
                    queue[tail++] = (uint32_t)p;
                } else if (--c == 0) {
                    cell[p] = DECIDED | next;
                    queue[tail++] = (uint32_t)p;
                } else {
                    cell[p] = c;
                }
            }
        }
        head += chunk;
    }
    free(queue);
    int deepest = tail > 0 ? remoteness : 0;
    double solve_wall = wall_now() - wall_start, solve_cpu = cpu_now() - cpu_start;

    /* Phase 3 and output: the rest are draws. Written in slices, no second full array. */
    enum { SLICE = 1 << 20 };
    static int8_t values[SLICE];
    static int16_t remotenesses[SLICE];
    int64_t wins = 0, losses = 0, draws = 0;
    for (int64_t start = 0; start < size; start += SLICE) {
        int64_t stop = start + SLICE < size ? start + SLICE : size;
        for (int64_t i = start; i < stop; i++) {
            uint16_t c = cell[i];
            int64_t k = i - start;
            if (!(c & DECIDED)) {
                values[k] = DRAW;
                remotenesses[k] = -1;
                draws++;
            } else {
                values[k] = (c & WIN_BIT) ? WIN : LOSS;
                remotenesses[k] = (int16_t)(c & REMOTENESS_MASK);
                if (c & WIN_BIT) wins++; else losses++;
            }
        }
        write_all(argv[2], value_file, values, (size_t)(stop - start));
        write_all(argv[3], remoteness_file, remotenesses, (size_t)(stop - start) * sizeof remotenesses[0]);
    }
    if (fclose(value_file) != 0 || fclose(remoteness_file) != 0) {
        fprintf(stderr, "dodgem_retrograde: cannot write the output: %s\n", strerror(errno));
        return 1;
    }
    free(cell);
    printf("{\"n\": %d, \"indices\": %lld, \"win\": %lld, \"loss\": %lld, \"draw\": %lld, \"max_remoteness\": %d, "
           "\"seed_cpu_seconds\": %.3f, \"solve_cpu_seconds\": %.3f, \"solve_wall_seconds\": %.3f, "
           "\"cpu_seconds\": %.3f, \"wall_seconds\": %.3f, "
           "\"peak_rss_bytes\": %ld, \"ru_maxrss_bytes\": %ld}\n",
           ctx.n, (long long)size, (long long)wins, (long long)losses, (long long)draws, deepest, seed_cpu, solve_cpu,
           solve_wall,
           cpu_now() - cpu_start, wall_now() - wall_start, peak_rss_bytes(), ru_maxrss_bytes());
    free_context(&ctx);
    return 0;
}
