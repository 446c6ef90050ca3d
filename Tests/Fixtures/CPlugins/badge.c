/*
 * A floor plugin written in plain C against floor_abi.h: the "Badge" floor, a one-row label
 * {"type":"Badge","id":"b","text":"..."}. Tests compile it with `cc -shared -fPIC` and load it into the
 * host, which proves the ABI needs no Swift. Macros give the same source each defect the loader must
 * catch:
 *   PLUGIN_ID, FLOOR_TYPE, ROW_TYPE        identity (compile twice with one FLOOR_TYPE for a duplicate)
 *   ABI_MAJOR, ABI_MINOR                   the ABI version the descriptor claims
 *   HEIGHT_SIGNATURE                       the height calculator's declared signature
 *   NO_ENTRY                               export no entry symbol at all
 * and each defect `floorhost conform` must catch (ConformanceTests maps each to the one check that fails):
 *   PLUGIN_NAME                            the descriptor's name ("" for an empty name)
 *   ABORT_IN_INIT                          abort() while registering
 *   DUPLICATE_ROW_TYPE                     register the row type twice
 *   SEGFAULT_IN_HEIGHT                     write through NULL in the height calculator
 *   NAN_HEIGHT, NEGATIVE_HEIGHT            heights that are not finite and >= 0
 *   NONDETERMINISTIC_HEIGHT                every other call answers one point taller
 *   HANG_IN_DECODE                         decode never returns
 *   SLOW_FIRST_DECODE                      the first decode takes 0.8 s, then every call is quick
 *   DRAW_OUTSIDE                           the cell's frame is 10 points wider than the cell
 *   LEAK_MODELS                            destroy frees nothing
 *   DESTROY_NOTES                          destroy appends a line to the file $BADGE_DESTROY_NOTES names (when
 *                                          and in which process models are freed)
 *   NO_SAMPLE_JSON                         register the floor type without sample JSON
 *   ACCEPTS_GARBAGE                        decode returns an empty badge for JSON without "text"
 *   REJECTS_ITS_SAMPLE                     a validator (ABI 1.1) that refuses every badge, its sample too
 *   ABI_1_0_STRUCTS                        register structs as sized by ABI 1.0 (before the 1.1 selectors)
 *   ABI_1_2_STRUCTS                        register the floor type as sized by ABI 1.1 and 1.2 (before schema_json)
 *   WITH_SCHEMA                            declare a schema (ABI 1.3): "text", a required string, and
 *                                          "tone", "count", "style" the decoder ignores (so only the schema
 *                                          reports a wrong one)
 *   CHATTY                                 log at info level from a detached thread of its own, 200 times
 *                                          while the host works, and once per decode (never a problem)
 *   SCHEMA_WITHOUT_TEXT                    declare a schema that requires "label" and has no "text", which
 *                                          the plugin's own sample does not match (fails conform's `schema`)
 *   TEXT_OPTIONAL                          with WITH_SCHEMA: decode accepts an object with no "text" at all
 *                                          (an empty badge), though the schema requires it; a "text" that is
 *                                          not a string is still refused (fails conform's `validate`, whose
 *                                          copy of the sample without "text" is not refused)
 *   USE_ABI_1_4                            use the ABI 1.4 additions, each only when the host's struct_size has
 *                                          it: the height is the host table's measure_text of the text
 *                                          (36 without it), and the cell fills the badge in the accent tone
 *                                          and draws the text struck through
 * and each way a plugin can disturb the host's own process state:
 *   CHDIR_IN_INIT                          chdir("/") while registering
 *   CLOSE_OUTPUT_IN_INIT                   close descriptors 1 and 2 while registering
 *   PRINTS_IN_CELL                         printf a line to stdout from the cell selector
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "floor_abi.h"

#ifdef CHATTY
#include <pthread.h>
#include <sched.h>
static const floor_host_t *chatty_host;
static void *chatter(void *unused) {
    (void)unused;
    for (int i = 0; i < 200; i++) {
        chatty_host->log(chatty_host, FLOOR_LOG_INFO, "warming a cache in the background");
        sched_yield(); /* lets the host's thread run between messages */
    }
    return NULL;
}
#endif

#ifdef ABI_1_0_STRUCTS
#define ROW_TYPE_SIZE offsetof(floor_row_type_t, tappable)
#define FLOOR_TYPE_SIZE offsetof(floor_floor_type_t, validate)
#elif defined(ABI_1_2_STRUCTS)
#define ROW_TYPE_SIZE sizeof(floor_row_type_t)
#define FLOOR_TYPE_SIZE offsetof(floor_floor_type_t, schema_json)
#else
#define ROW_TYPE_SIZE sizeof(floor_row_type_t)
#define FLOOR_TYPE_SIZE sizeof(floor_floor_type_t)
#endif

#ifndef PLUGIN_ID
#define PLUGIN_ID "com.floorkit.test.badge"
#endif
#ifndef FLOOR_TYPE
#define FLOOR_TYPE "Badge"
#endif
#ifndef ROW_TYPE
#define ROW_TYPE "BadgeRow"
#endif
#ifndef ABI_MAJOR
#define ABI_MAJOR FLOOR_ABI_MAJOR
#endif
#ifndef ABI_MINOR
#define ABI_MINOR FLOOR_ABI_MINOR
#endif
#ifndef PLUGIN_NAME
#define PLUGIN_NAME "Badge (C)"
#endif
#ifndef HEIGHT_SIGNATURE
#define HEIGHT_SIGNATURE FLOOR_SIG_HEIGHT
#endif

#if defined(SCHEMA_WITHOUT_TEXT)
#define SCHEMA_JSON "{\"type\":\"object\",\"properties\":{\"label\":{\"type\":\"string\"}},\"required\":[\"label\"]}"
#elif defined(WITH_SCHEMA)
#define SCHEMA_JSON "{\"type\":\"object\",\"properties\":{" \
    "\"text\":{\"type\":\"string\",\"description\":\"The badge's label.\"}," \
    "\"tone\":{\"enum\":[\"info\",\"warn\"],\"description\":\"Not drawn; declared for the schema tests.\"}," \
    "\"count\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":99}," \
    "\"style\":{\"type\":\"object\",\"properties\":{\"color\":{\"type\":\"string\"}},\"required\":[\"color\"]}" \
    "},\"required\":[\"text\"]}"
#endif

typedef struct badge { char text[128]; } badge_t;

/* CRASHES_ON_DATA: bugs that only real page data reaches (the sample's text names no selector): each
 * selector writes through NULL when the floor's text says "crash:<selector>" (e.g. "text":"crash:height"),
 * never returns when it says "hang:<selector>", and ends the process itself when it says
 * "exit0:<selector>" (exit(0)), "exit3:<selector>" (exit(3)), "_exit3:<selector>" (_exit(3)),
 * "_Exit5:<selector>" (_Exit(5)) or "sigterm:<selector>" (raise(SIGTERM)). When it says
 * "describe:<selector>", it writes to stderr what process it runs in and goes on: a line
 * "describe: cmdline ARG ARG..." (/proc/self/cmdline, arguments joined by spaces), a line "describe:
 * thread first" or "describe: thread other" (whether the call runs on the process's first thread), then
 * for each open descriptor "describe: fd N MODE TARGET" (MODE r, w or rw; TARGET what /proc/self/fd/N
 * links to). */
#ifdef CRASHES_ON_DATA
#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>

static void badge_describe_process(void) {
    char line[4096];
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, line, sizeof line - 1) : -1;
    if (fd >= 0) close(fd);
    if (n < 0) n = 0;
    while (n > 0 && line[n - 1] == '\0') n--;
    for (ssize_t i = 0; i < n; i++) if (line[i] == '\0') line[i] = ' ';
    dprintf(2, "describe: cmdline %.*s\n", (int)n, line);
    dprintf(2, "describe: thread %s\n", syscall(SYS_gettid) == getpid() ? "first" : "other");
    DIR *listing = opendir("/proc/self/fd");
    if (!listing) return;
    struct dirent *entry;
    while ((entry = readdir(listing))) {
        if (entry->d_name[0] == '.') continue;
        int number = atoi(entry->d_name);
        if (number == dirfd(listing)) continue;
        char path[64], target[512];
        snprintf(path, sizeof path, "/proc/self/fd/%d", number);
        ssize_t length = readlink(path, target, sizeof target - 1);
        target[length > 0 ? length : 0] = '\0';
        int mode = fcntl(number, F_GETFL) & O_ACCMODE;
        dprintf(2, "describe: fd %d %s %s\n", number, mode == O_RDONLY ? "r" : mode == O_WRONLY ? "w" : "rw", target);
    }
    closedir(listing);
}

#define CRASH_IF(haystack, stage) do { \
        if (strstr((haystack), "describe:" stage)) badge_describe_process(); \
        if (strstr((haystack), "crash:" stage)) *(volatile int *)(uintptr_t)0 = 1; \
        if (strstr((haystack), "hang:" stage)) for (volatile int spin = 1; spin;) {} \
        if (strstr((haystack), "_exit3:" stage)) _exit(3); \
        if (strstr((haystack), "_Exit5:" stage)) _Exit(5); \
        if (strstr((haystack), "exit0:" stage)) exit(0); \
        if (strstr((haystack), "exit3:" stage)) exit(3); \
        if (strstr((haystack), "sigterm:" stage)) raise(SIGTERM); \
    } while (0)
#else
#define CRASH_IF(haystack, stage) do { (void)(haystack); } while (0)
#endif

static int32_t badge_row_type = -1;
#ifdef USE_ABI_1_4
static const floor_host_t *badge_host;  /* the ABI lets a plugin keep the host table */
#define HAS_FIELD(ptr, type, field) ((ptr)->struct_size >= offsetof(type, field) + sizeof((ptr)->field))
#endif

/* Finds "text":"..." in the floor object; enough JSON for a test plugin (no escapes in the value). */
static void *badge_decode(void *ctx, const char *json, uint64_t len, const floor_report_t *report) {
#ifdef CHATTY
    chatty_host->log(chatty_host, FLOOR_LOG_INFO, "decoding a badge");
#endif
    (void)ctx;
#ifdef HANG_IN_DECODE
    for (volatile int spin = 1; spin;) {}
#endif
#ifdef SLOW_FIRST_DECODE
    static int decoded;
    if (!decoded++) {
        struct timespec pause = {0, 800000000};
        nanosleep(&pause, NULL);
    }
#endif
    static const char key[] = "\"text\":\"";
    for (uint64_t i = 0; i + sizeof key - 1 < len; i++) {
        if (memcmp(json + i, key, sizeof key - 1) != 0) continue;
        const char *start = json + i + sizeof key - 1;
        const char *end = memchr(start, '"', (size_t)(json + len - start));
        if (!end) break;
        badge_t *badge = calloc(1, sizeof *badge);
        size_t n = (size_t)(end - start) < sizeof badge->text - 1 ? (size_t)(end - start) : sizeof badge->text - 1;
        memcpy(badge->text, start, n);
        CRASH_IF(badge->text, "decode");
        return badge;
    }
#ifdef ACCEPTS_GARBAGE
    (void)report;
    return calloc(1, sizeof(badge_t));
#else
#ifdef TEXT_OPTIONAL
    /* An object with no "text" key at all is an empty badge. */
    static const char named[] = "\"text\"";
    int mentions_text = 0;
    for (uint64_t i = 0; i + sizeof named - 1 <= len; i++) {
        if (memcmp(json + i, named, sizeof named - 1) == 0) { mentions_text = 1; break; }
    }
    if (!mentions_text && len >= 2 && json[0] == '{' && json[len - 1] == '}') return calloc(1, sizeof(badge_t));
#endif
    report->error(report, "text", "a badge needs a \"text\" string");
    return NULL;
#endif
}

static void badge_expand(void *ctx, void *model, const floor_row_sink_t *sink) {
    (void)ctx;
    CRASH_IF(((badge_t *)model)->text, "expand");
    sink->add(sink, badge_row_type, 0);
}

static void badge_destroy(void *ctx, void *model) {
    (void)ctx;
#ifdef DESTROY_NOTES
    const char *notes = getenv("BADGE_DESTROY_NOTES");
    FILE *file = notes ? fopen(notes, "a") : NULL;
    if (file) {
        fprintf(file, "destroy in %d\n", (int)getpid());
        fclose(file);
    }
#endif
#ifndef LEAK_MODELS
    free(model);
#else
    (void)model;
#endif
}

#ifdef REJECTS_ITS_SAMPLE
static bool badge_validate(void *ctx, void *model, const floor_report_t *report) {
    (void)ctx; (void)model;
    report->error(report, "text", "no badge is ever valid");
    return false;
}
#endif

static double badge_height(void *ctx, void *model, uint64_t row, double width) {
    (void)ctx; (void)model; (void)row; (void)width;
    CRASH_IF(((badge_t *)model)->text, "height");
#if defined(SEGFAULT_IN_HEIGHT)
    *(volatile int *)(uintptr_t)row = 1;  /* row 0: a write through NULL */
#endif
#if defined(NAN_HEIGHT)
    return __builtin_nan("");
#elif defined(NEGATIVE_HEIGHT)
    return -36;
#elif defined(NONDETERMINISTIC_HEIGHT)
    static unsigned calls;
    return 36 + (calls++ & 1);
#elif defined(USE_ABI_1_4)
    if (badge_host && HAS_FIELD(badge_host, floor_host_t, measure_text) && badge_host->measure_text)
        return badge_host->measure_text(badge_host, ((badge_t *)model)->text, FLOOR_TEXT_BOLD);
    return 36;
#else
    return 36;
#endif
}

static void badge_cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) {
    (void)ctx; (void)row;
    const badge_t *badge = model;
    CRASH_IF(badge->text, "cell");
#ifdef PRINTS_IN_CELL
    printf("a plugin's own line on stdout\n");
    fflush(stdout);
#endif
#ifdef DRAW_OUTSIDE
    canvas->box(canvas, 0, 0, canvas->width + 10, canvas->height);
#else
    canvas->box(canvas, 0, 0, canvas->width, canvas->height);
#endif
#ifdef USE_ABI_1_4
    if (HAS_FIELD(canvas, floor_canvas_t, fill) && canvas->fill && canvas->measure_text) {
        canvas->fill(canvas, 0, 0, canvas->width, canvas->height < 12 ? canvas->height : 12, FLOOR_TONE_ACCENT);
        double w = canvas->measure_text(canvas, badge->text, FLOOR_TEXT_STRIKE);
        canvas->text(canvas, 0, 0, w < canvas->width ? w : canvas->width, badge->text, FLOOR_TEXT_STRIKE);
        return;
    }
#endif
    canvas->text(canvas, 8, 12, canvas->width - 16, badge->text, FLOOR_TEXT_BOLD);
}

static bool badge_init(const floor_host_t *host) {
#ifdef USE_ABI_1_4
    badge_host = host;
#endif
#ifdef ABORT_IN_INIT
    abort();
#endif
#ifdef CHDIR_IN_INIT
    if (chdir("/") != 0) return false;
#endif
#ifdef CLOSE_OUTPUT_IN_INIT
    close(1);
    close(2);
#endif
    floor_row_type_t row = {
        .struct_size = ROW_TYPE_SIZE, .type_name = ROW_TYPE, .context = NULL,
        .height = {"heightForBadgeRow:width:", HEIGHT_SIGNATURE, (floor_fn_t)badge_height},
        .cell = {"cellForBadgeRow:canvas:", FLOOR_SIG_CELL, (floor_fn_t)badge_cell},
    };
    badge_row_type = host->register_row_type(host, &row);
#ifdef DUPLICATE_ROW_TYPE
    host->register_row_type(host, &row);
#endif
    floor_floor_type_t floor = {
        .struct_size = FLOOR_TYPE_SIZE, .type_name = FLOOR_TYPE, .context = NULL,
#ifndef NO_SAMPLE_JSON
        .sample_json = "{\"type\":\"" FLOOR_TYPE "\",\"id\":\"badge\",\"text\":\"C plugin\"}",
#endif
        .decode = {"decodeBadge:", FLOOR_SIG_DECODE, (floor_fn_t)badge_decode},
        .expand = {"expandBadge:", FLOOR_SIG_EXPAND, (floor_fn_t)badge_expand},
        .destroy = {"destroyBadge:", FLOOR_SIG_DESTROY, (floor_fn_t)badge_destroy},
#ifdef REJECTS_ITS_SAMPLE
        .validate = {"validateBadge:", FLOOR_SIG_VALIDATE, (floor_fn_t)badge_validate},
#endif
#ifdef SCHEMA_JSON
        .schema_json = SCHEMA_JSON,
#endif
    };
    host->register_floor_type(host, &floor);
    host->log(host, FLOOR_LOG_INFO, "badge plugin registered");
#ifdef CHATTY
    chatty_host = host;
    pthread_t thread;
    if (pthread_create(&thread, NULL, chatter, NULL) == 0) pthread_detach(thread);
#endif
    return true;
}

static const floor_plugin_descriptor_t descriptor = {
    .struct_size = sizeof descriptor, .abi_major = ABI_MAJOR, .abi_minor = ABI_MINOR,
    .id = PLUGIN_ID, .name = PLUGIN_NAME, .version = "0.1.0", .init = badge_init,
};

#ifndef NO_ENTRY
const floor_plugin_descriptor_t *floor_plugin_entry(void) { return &descriptor; }
#else
const floor_plugin_descriptor_t *not_the_entry(void) { return &descriptor; }
#endif
