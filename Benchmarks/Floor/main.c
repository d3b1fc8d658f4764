/*
 * floor: the reference "best possible" libmicrohttpd server-sent-events server
 * the Swift server (Bindery) is compared with.
 *
 *   floor [--port N] [--period-ms N] [--max-connections N] [--threads N]
 *
 *   --port N             TCP port on 127.0.0.1 (0, the default, picks a free one)
 *   --period-ms N        tick period in milliseconds (default 100)
 *   --max-connections N  libmicrohttpd connection limit (default 20000)
 *   --threads N          libmicrohttpd event loops (default 1: one loop, no pool)
 *
 * When ready it prints one line to stdout: "floor listening on http://127.0.0.1:PORT/".
 *
 *   GET  .../events (or Accept: text/event-stream)  200 text/event-stream: "retry: 1000\n\n",
 *        then one "id: <n>\nevent: tick\ndata: <CLOCK_MONOTONIC ns>\n\n" per period.
 *   POST .../inputs/<name>                          200 {"id":"floor","lastEventId":1,"outputs":{}}
 *   POST /api/<one segment>                         201 {"id":"floor"}
 *   anything else                                   404 {"error":"not_found"}
 *
 * One epoll event loop by default (--threads N: libmicrohttpd's pool of N
 * loops, as many as Bindery runs), one ticker thread. A tick is encoded once
 * into a reference-counted buffer shared by every stream; a stream with nothing
 * to send is suspended and the ticker resumes it. Each stream's own mutex
 * orders its suspend and its resume, so a wake that races a suspend is never
 * lost, and the ticker never holds a lock a reader on another stream needs.
 * SIGINT/SIGTERM stop the server cleanly (exit 0).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* One encoded tick, shared by every stream that still has to send it. */
struct event {
    unsigned refs; /* guarded by g_lock */
    uint64_t id;
    size_t len;
    char bytes[];
};

/* One open event stream (the content reader's closure). */
struct stream {
    struct MHD_Connection *connection;
    struct stream *prev, *next; /* g_streams list, guarded by g_list_lock */
    pthread_mutex_t lock;       /* orders this stream's suspend and resume */
    bool suspended;             /* guarded by lock */
    size_t prefix_sent;         /* bytes of PREFIX already sent */
    uint64_t last_id;           /* id of the last event taken */
    struct event *current;      /* event being sent (a reference), or NULL */
    size_t offset;              /* bytes of current already sent */
};

static const char PREFIX[] = "retry: 1000\n\n";
#define PREFIX_LEN (sizeof(PREFIX) - 1)

/* Lock order: g_list_lock, then a stream's lock, then g_lock. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER; /* g_latest, event refs */
static pthread_mutex_t g_list_lock = PTHREAD_MUTEX_INITIALIZER; /* g_streams, g_open_streams */
static pthread_cond_t g_tick_cond; /* CLOCK_MONOTONIC, with g_lock; signals the ticker to stop */
static struct stream *g_streams;    /* all open streams */
static struct event *g_latest;      /* newest event (a reference), or NULL */
static _Atomic uint64_t g_latest_id; /* g_latest's id (0: none), stored after g_latest */
static atomic_bool g_stopping;       /* shutting down: readers end their streams */
static long g_period_ms = 100;
static size_t g_open_streams;

static struct MHD_Response *g_input_response;
static struct MHD_Response *g_create_response;
static struct MHD_Response *g_not_found_response;

static uint64_t monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Call with g_lock held. */
static void event_release(struct event *e) {
    if (e != NULL && --e->refs == 0) free(e);
}

/* Wake every suspended stream: each one's reader runs again and sees what changed. */
static void resume_suspended(void) {
    pthread_mutex_lock(&g_list_lock);
    for (struct stream *s = g_streams; s != NULL; s = s->next) {
        pthread_mutex_lock(&s->lock);
        if (s->suspended) {
            s->suspended = false;
            MHD_resume_connection(s->connection);
        }
        pthread_mutex_unlock(&s->lock);
    }
    pthread_mutex_unlock(&g_list_lock);
}

/* ---- ticker ------------------------------------------------------------- */

static void *ticker_main(void *arg) {
    (void)arg;
    uint64_t id = 0;
    struct timespec due;
    clock_gettime(CLOCK_MONOTONIC, &due);
    pthread_mutex_lock(&g_lock);
    while (!g_stopping) {
        due.tv_sec += g_period_ms / 1000;
        due.tv_nsec += (g_period_ms % 1000) * 1000000L;
        if (due.tv_nsec >= 1000000000L) { due.tv_sec += 1; due.tv_nsec -= 1000000000L; }
        while (!g_stopping) {
            int rc = pthread_cond_timedwait(&g_tick_cond, &g_lock, &due);
            if (rc == ETIMEDOUT) break;
        }
        if (g_stopping) break;
        /* If we fell behind (e.g. the machine was stalled), do not burst. */
        uint64_t now = monotonic_ns();
        uint64_t due_ns = (uint64_t)due.tv_sec * 1000000000u + (uint64_t)due.tv_nsec;
        if (now > due_ns + (uint64_t)g_period_ms * 1000000u) {
            due.tv_sec = (time_t)(now / 1000000000u);
            due.tv_nsec = (long)(now % 1000000000u);
        }

        /* Encode the tick once. */
        char text[96];
        id += 1;
        int n = snprintf(text, sizeof text, "id: %llu\nevent: tick\ndata: %llu\n\n",
                         (unsigned long long)id, (unsigned long long)monotonic_ns());
        struct event *e = malloc(sizeof *e + (size_t)n);
        if (e == NULL) continue;
        e->refs = 1;
        e->id = id;
        e->len = (size_t)n;
        memcpy(e->bytes, text, (size_t)n);
        event_release(g_latest);
        g_latest = e;
        atomic_store_explicit(&g_latest_id, id, memory_order_release);
        pthread_mutex_unlock(&g_lock);
        resume_suspended();
        pthread_mutex_lock(&g_lock);
    }
    pthread_mutex_unlock(&g_lock);
    return NULL;
}

/* ---- event streams ------------------------------------------------------ */

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max) {
    (void)pos;
    struct stream *s = cls;
    size_t n = 0;
    for (;;) {
        if (atomic_load_explicit(&g_stopping, memory_order_acquire))
            return MHD_CONTENT_READER_END_OF_STREAM;
        if (s->prefix_sent < PREFIX_LEN) {
            size_t k = PREFIX_LEN - s->prefix_sent;
            if (k > max) k = max;
            memcpy(buf, PREFIX + s->prefix_sent, k);
            s->prefix_sent += k;
            n += k;
        }
        while (n < max) {
            if (s->current == NULL) {
                /* Behind by one or more events: send only the newest (coalesce). */
                if (atomic_load_explicit(&g_latest_id, memory_order_acquire) <= s->last_id) break;
                pthread_mutex_lock(&g_lock);
                struct event *e = g_latest;
                s->last_id = e->id;
                if (e->len <= max - n) { /* the usual case: copy it whole, no reference */
                    memcpy(buf + n, e->bytes, e->len);
                    n += e->len;
                    pthread_mutex_unlock(&g_lock);
                    continue;
                }
                e->refs += 1;
                s->current = e;
                s->offset = 0;
                pthread_mutex_unlock(&g_lock);
            }
            size_t k = s->current->len - s->offset;
            if (k > max - n) k = max - n;
            memcpy(buf + n, s->current->bytes + s->offset, k);
            s->offset += k;
            n += k;
            if (s->offset == s->current->len) {
                pthread_mutex_lock(&g_lock);
                event_release(s->current);
                pthread_mutex_unlock(&g_lock);
                s->current = NULL;
            }
        }
        if (n > 0) return (ssize_t)n;
        /* Nothing to send: suspend (never return 0 without it, that spins). The
         * ticker stores the id, then takes s->lock to look at s->suspended: under
         * s->lock we either see its news or it sees this suspend. */
        pthread_mutex_lock(&s->lock);
        bool news = atomic_load_explicit(&g_latest_id, memory_order_acquire) > s->last_id
            || atomic_load_explicit(&g_stopping, memory_order_acquire);
        if (!news) {
            s->suspended = true;
            MHD_suspend_connection(s->connection);
        }
        pthread_mutex_unlock(&s->lock);
        if (!news) return 0;
    }
}

static void stream_free(void *cls) {
    struct stream *s = cls;
    pthread_mutex_lock(&g_list_lock);
    if (s->prev != NULL) s->prev->next = s->next; else g_streams = s->next;
    if (s->next != NULL) s->next->prev = s->prev;
    g_open_streams -= 1;
    pthread_mutex_unlock(&g_list_lock);
    pthread_mutex_lock(&g_lock);
    event_release(s->current);
    pthread_mutex_unlock(&g_lock);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static enum MHD_Result open_stream(struct MHD_Connection *connection) {
    struct stream *s = calloc(1, sizeof *s);
    if (s == NULL) return MHD_NO;
    s->connection = connection;
    pthread_mutex_init(&s->lock, NULL);
    struct MHD_Response *r = MHD_create_response_from_callback(
        MHD_SIZE_UNKNOWN, 4096, stream_read, s, stream_free);
    if (r == NULL) { pthread_mutex_destroy(&s->lock); free(s); return MHD_NO; }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    MHD_add_response_header(r, "X-Accel-Buffering", "no");
    /* A new stream starts with the next tick, like a fresh subscriber. */
    s->last_id = atomic_load_explicit(&g_latest_id, memory_order_acquire);
    pthread_mutex_lock(&g_list_lock);
    s->next = g_streams;
    if (g_streams != NULL) g_streams->prev = s;
    g_streams = s;
    g_open_streams += 1;
    pthread_mutex_unlock(&g_list_lock);
    /* From here the response owns s: stream_free runs when it is destroyed. */
    enum MHD_Result ret = MHD_queue_response(connection, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

/* ---- routing ------------------------------------------------------------ */

static bool ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

/* ".../inputs/<name>" with a non-empty last segment. */
static bool is_input_path(const char *url) {
    const char *slash = strrchr(url, '/');
    if (slash == NULL || slash[1] == '\0') return false;
    size_t prefix = (size_t)(slash - url);
    return prefix >= 7 && memcmp(slash - 7, "/inputs", 7) == 0;
}

/* "/api/<segment>" with exactly one non-empty segment. */
static bool is_create_path(const char *url) {
    if (strncmp(url, "/api/", 5) != 0) return false;
    const char *rest = url + 5;
    return rest[0] != '\0' && strchr(rest, '/') == NULL;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *connection,
                                  const char *url, const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **con_cls) {
    (void)cls; (void)version; (void)upload_data;
    static int seen;
    if (*con_cls == NULL) { /* headers only so far */
        *con_cls = &seen;
        return MHD_YES;
    }
    if (*upload_data_size != 0) { /* discard the request body */
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (strcmp(method, MHD_HTTP_METHOD_GET) == 0) {
        const char *accept = MHD_lookup_connection_value(connection, MHD_HEADER_KIND,
                                                         MHD_HTTP_HEADER_ACCEPT);
        if (ends_with(url, "/events") ||
            (accept != NULL && strcasestr(accept, "text/event-stream") != NULL))
            return open_stream(connection);
    } else if (strcmp(method, MHD_HTTP_METHOD_POST) == 0) {
        if (is_input_path(url))
            return MHD_queue_response(connection, MHD_HTTP_OK, g_input_response);
        if (is_create_path(url))
            return MHD_queue_response(connection, MHD_HTTP_CREATED, g_create_response);
    }
    return MHD_queue_response(connection, MHD_HTTP_NOT_FOUND, g_not_found_response);
}

/* libmicrohttpd's error log, without the line it writes for every stream whose
 * client went away (the load client's exit would print one per stream). */
static void mhd_log(void *cls, const char *format, va_list ap) {
    (void)cls;
    char text[512];
    vsnprintf(text, sizeof text, format, ap);
    if (strstr(text, "no longer available for sending") != NULL ||
        strstr(text, "forcibly closed by remote peer") != NULL)
        return;
    size_t len = strlen(text);
    fprintf(stderr, "floor: libmicrohttpd: %s%s", text,
            len > 0 && text[len - 1] == '\n' ? "" : "\n");
}

static struct MHD_Response *json_response(const char *body) {
    struct MHD_Response *r = MHD_create_response_from_buffer(
        strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
    if (r == NULL) { fprintf(stderr, "floor: cannot create a response\n"); exit(1); }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    return r;
}

/* ---- main --------------------------------------------------------------- */

static void usage(void) {
    fprintf(stderr, "usage: floor [--port N (0 = free port)] [--period-ms N (default 100)]"
                    " [--max-connections N (default 20000)] [--threads N (default 1)]\n");
    exit(2);
}

static long parse_number(const char *text, long min, long max) {
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v < min || v > max) usage();
    return v;
}

int main(int argc, char **argv) {
    long port = 0, max_connections = 20000, threads = 1;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) usage();
        if (strcmp(argv[i], "--port") == 0) port = parse_number(argv[++i], 0, 65535);
        else if (strcmp(argv[i], "--period-ms") == 0) g_period_ms = parse_number(argv[++i], 1, 86400000);
        else if (strcmp(argv[i], "--max-connections") == 0) max_connections = parse_number(argv[++i], 1, 10000000);
        else if (strcmp(argv[i], "--threads") == 0) threads = parse_number(argv[++i], 1, 256);
        else usage();
    }

    /* One descriptor per connection: allow as many as the hard limit does. */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }

    /* Block the stop signals in every thread; the main thread sigwaits. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);

    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&g_tick_cond, &attr);
    pthread_condattr_destroy(&attr);

    g_input_response = json_response("{\"id\":\"floor\",\"lastEventId\":1,\"outputs\":{}}");
    g_create_response = json_response("{\"id\":\"floor\"}");
    g_not_found_response = json_response("{\"error\":\"not_found\"}");

    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG,
        (uint16_t)port, NULL, NULL, on_request, NULL,
        MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL, /* first, as libmicrohttpd asks */
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)max_connections,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)120,
        /* Last: with one loop the list ends here (a pool size of 1 draws a warning). */
        threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, (unsigned int)threads,
        MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "floor: cannot start the daemon on 127.0.0.1:%ld\n", port);
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    unsigned bound = info != NULL ? info->port : 0;

    pthread_t ticker;
    if (pthread_create(&ticker, NULL, ticker_main, NULL) != 0) {
        fprintf(stderr, "floor: cannot start the ticker\n");
        MHD_stop_daemon(daemon);
        return 1;
    }

    printf("floor listening on http://127.0.0.1:%u/\n", bound);
    fflush(stdout);

    int sig = 0;
    while (sigwait(&stop_signals, &sig) != 0) {}
    uint64_t stop_started = monotonic_ns();

    /* Stop the ticker, let every stream end, then stop the daemon. */
    pthread_mutex_lock(&g_lock);
    atomic_store_explicit(&g_stopping, true, memory_order_release);
    pthread_cond_signal(&g_tick_cond);
    pthread_mutex_unlock(&g_lock);
    pthread_join(ticker, NULL);

    pthread_mutex_lock(&g_list_lock);
    size_t open = g_open_streams;
    pthread_mutex_unlock(&g_list_lock);
    resume_suspended();

    MHD_stop_daemon(daemon);
    MHD_destroy_response(g_input_response);
    MHD_destroy_response(g_create_response);
    MHD_destroy_response(g_not_found_response);
    pthread_mutex_lock(&g_lock);
    event_release(g_latest);
    g_latest = NULL;
    pthread_mutex_unlock(&g_lock);
    fprintf(stderr, "floor: stopped on signal %d in %.3f s (%zu streams were open)\n", sig,
            (double)(monotonic_ns() - stop_started) / 1e9, open);
    return 0;
}
