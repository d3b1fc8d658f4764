/*
 * load: a small single-threaded epoll load client for Bindery and the floor.
 * It connects to 127.0.0.1 only and prints one JSON object on stdout at the
 * end (progress and errors go to stderr).
 *
 *   load sse  --port P [--path /api/tick/SID/events] [--streams N] [--seconds S]
 *             [--warmup-seconds W]
 *   load post --port P [--connections C] [--seconds S] [--create /api/simple]
 *             [--input-path /api/simple/{sid}/inputs/buttonTap] [--warmup-seconds W]
 *             [--body JSON] [--keyed]
 *
 * sse: opens N streams at once (non-blocking connects), parses the HTTP head,
 * the chunked body and the server-sent events. An event whose data is a decimal
 * integer is a CLOCK_MONOTONIC timestamp in ns; its latency is now - data.
 * The run "settles" when every stream has received its first event or has
 * failed (refused, connect failure, closed), or 20 s after the start at the
 * latest. The measured window is [settle + W, settle + W + S] (W defaults to 2).
 *   connected          streams that got a 200 response head
 *   refused            streams answered with another status (firstRefusedStatus:
 *                      the first such status, 0 if none)
 *   unanswered         streams that never got a response head (connect error,
 *                      closed before the head, or still waiting at the end, e.g.
 *                      held in the listen backlog by a server at its connection limit)
 *   closedEarly        streams closed by the server after a 200 head, before the end
 *   events             events received in the window; eventsPerSecond = events / S
 *   p50Ms/p99Ms/maxMs  latency of the window's events (-1 if none)
 *   firstEventSeconds  time from the start until every stream had an event (-1 if
 *                      some never did)
 *   streamsWithEvents  streams that got at least one event in the window
 *
 * post: C keep-alive connections; each POSTs --create (empty body), takes the
 * "id" of the JSON answer, then POSTs the input path ({sid} replaced) in a
 * closed loop, one request at a time. Requests sent after start + W and
 * completed before start + W + S (W defaults to 1) are recorded.
 *   requests, requestsPerSecond, p50Ms/p99Ms/maxMs (-1 if none)
 *   errors             non-2xx responses during the whole run (creates included)
 *   reconnects         connections re-opened after the server closed them
 *
 * Every run ends by itself, at the latest W + S + 30 s after the start.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>

#define NS_PER_S 1000000000ull
#define NS_PER_MS 1000000ull
#define HEAD_MAX 8192
#define SETTLE_CAP_NS (20 * NS_PER_S)
#define HARD_EXTRA_NS (30 * NS_PER_S)

enum mode { MODE_SSE, MODE_POST };
enum conn_state { C_CLOSED, C_CONNECTING, C_OPEN, C_DONE };
enum http_state { H_IDLE, H_HEAD, H_BODY };
enum body_mode { BODY_NONE, BODY_LENGTH, BODY_CHUNKED, BODY_CLOSE };
enum chunk_state { CH_SIZE, CH_EXT, CH_DATA, CH_DATA_END, CH_TRAILER };
enum action { ACT_CONNECT, ACT_CREATE };

struct conn {
    int fd;
    uint32_t gen;            /* bumped on every close: stale epoll events are skipped */
    enum conn_state state;
    uint32_t events_mask;    /* current epoll interest */

    /* writing */
    const char *wbuf;
    size_t wlen, woff;

    /* HTTP response parsing */
    enum http_state hstate;
    char *head;
    size_t head_len;
    int status;
    enum body_mode body_mode;
    uint64_t body_left;
    bool close_after;
    enum chunk_state chstate;
    uint64_t chunk_size;
    size_t trailer_line_len;
    bool saw_head;           /* this stream ever got a response head */

    /* sse */
    char line[256];
    size_t line_len;
    bool line_overflow, last_cr;
    char data[64];
    size_t data_len;
    bool has_data, data_overflow;
    char event[32];
    size_t event_len;
    bool got_first, settled;
    uint64_t window_events;

    /* post */
    bool creating, create_failed;
    char body[1024];
    size_t body_len;
    char *input_req;
    size_t input_req_len;
    /* --keyed: where the request's Idempotency-Key is written, and how many it has sent. */
    size_t key_at;
    uint64_t keys_sent;
    uint64_t sent_at;
};

struct retry { uint32_t idx, gen; uint64_t due; enum action act; };

static struct {
    enum mode mode;
    int port;
    const char *path, *create_path, *input_path, *body;
    bool keyed;                /* post: each input with an Idempotency-Key of its own */
    long streams, connections;
    double seconds, warmup;

    int ep;
    struct sockaddr_in addr;
    struct conn *conns;
    long nconns;
    char *sse_req, *create_req;
    size_t sse_req_len, create_req_len;

    uint64_t start, hard_deadline, settle_at, wstart, wend;
    long settled, first_count;
    uint64_t first_all_at;

    long connected, refused, connect_failures, closed_early;
    int first_refused_status;
    uint64_t events, requests, errors, reconnects;

    uint64_t *samples;
    size_t nsamples, samples_cap;

    struct retry *retries;
    size_t nretries, retries_cap;
} g;

static char g_rbuf[65536];

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

static void *xmalloc(size_t n) {
    void *p = malloc(n);
    if (p == NULL) { fprintf(stderr, "load: out of memory\n"); exit(1); }
    return p;
}

static void add_sample(uint64_t ns) {
    if (g.nsamples == g.samples_cap) {
        g.samples_cap = g.samples_cap ? g.samples_cap * 2 : 65536;
        g.samples = realloc(g.samples, g.samples_cap * sizeof *g.samples);
        if (g.samples == NULL) { fprintf(stderr, "load: out of memory\n"); exit(1); }
    }
    g.samples[g.nsamples++] = ns;
}

static void schedule(struct conn *c, enum action act, uint64_t delay_ns) {
    if (g.nretries == g.retries_cap) {
        g.retries_cap = g.retries_cap ? g.retries_cap * 2 : 256;
        g.retries = realloc(g.retries, g.retries_cap * sizeof *g.retries);
        if (g.retries == NULL) { fprintf(stderr, "load: out of memory\n"); exit(1); }
    }
    g.retries[g.nretries++] = (struct retry){
        (uint32_t)(c - g.conns), c->gen, now_ns() + delay_ns, act };
}

static bool in_window(uint64_t t) { return t >= g.wstart && t < g.wend; }

/* ---- connection plumbing ------------------------------------------------ */

static void set_interest(struct conn *c, uint32_t mask) {
    if (c->events_mask == mask) return;
    struct epoll_event ev = { .events = mask,
                              .data.u64 = ((uint64_t)(c - g.conns) << 32) | c->gen };
    if (epoll_ctl(g.ep, EPOLL_CTL_MOD, c->fd, &ev) == 0) c->events_mask = mask;
}

static void close_conn(struct conn *c) {
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    c->gen += 1;
    c->state = C_CLOSED;
    c->hstate = H_IDLE;
    c->wbuf = NULL;
}

static void mark_settled(struct conn *c) {
    if (c->settled) return;
    c->settled = true;
    g.settled += 1;
}

/* A stream that is over for good (sse) or a connection given up (post). */
static void finish(struct conn *c) {
    close_conn(c);
    c->state = C_DONE;
    mark_settled(c);
}

static void start_connect(struct conn *c);

static void connect_failed(struct conn *c) {
    g.connect_failures += 1;
    if (g.mode == MODE_SSE) finish(c);
    else { close_conn(c); schedule(c, ACT_CONNECT, 100 * NS_PER_MS); }
}

static void start_connect(struct conn *c) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
            schedule(c, ACT_CONNECT, 50 * NS_PER_MS);
            return;
        }
        fprintf(stderr, "load: socket: %s\n", strerror(errno));
        connect_failed(c);
        return;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    c->fd = fd;
    c->state = C_CONNECTING;
    if (connect(fd, (struct sockaddr *)&g.addr, sizeof g.addr) != 0 && errno != EINPROGRESS) {
        int err = errno;
        close_conn(c);
        if (err == EADDRNOTAVAIL || err == EAGAIN || err == EINTR) {
            schedule(c, ACT_CONNECT, 50 * NS_PER_MS); /* out of ports for now: retry */
            return;
        }
        connect_failed(c);
        return;
    }
    struct epoll_event ev = { .events = EPOLLOUT | EPOLLIN,
                              .data.u64 = ((uint64_t)(c - g.conns) << 32) | c->gen };
    if (epoll_ctl(g.ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
        fprintf(stderr, "load: epoll_ctl: %s\n", strerror(errno));
        close_conn(c);
        connect_failed(c);
        return;
    }
    c->events_mask = ev.events;
}

/* Returns false if the connection broke (it is then closed). */
static bool flush_write(struct conn *c) {
    while (c->woff < c->wlen) {
        ssize_t n = send(c->fd, c->wbuf + c->woff, c->wlen - c->woff, MSG_NOSIGNAL);
        if (n > 0) { c->woff += (size_t)n; continue; }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            set_interest(c, EPOLLIN | EPOLLOUT);
            return true;
        }
        return false;
    }
    set_interest(c, EPOLLIN);
    return true;
}

static bool send_request(struct conn *c, const char *req, size_t len) {
    c->wbuf = req;
    c->wlen = len;
    c->woff = 0;
    c->hstate = H_HEAD;
    c->head_len = 0;
    c->sent_at = now_ns();
    return flush_write(c);
}

static bool send_next_post(struct conn *c) {
    if (c->input_req == NULL) {
        c->creating = true;
        c->body_len = 0;
        return send_request(c, g.create_req, g.create_req_len);
    }
    c->creating = false;
    if (g.keyed) {
        /* A key no other input of the run has: the connection's number, then its count. */
        uint64_t key = ((uint64_t)(c - g.conns) << 40) | c->keys_sent++;
        for (int digit = 15; digit >= 0; digit--, key >>= 4) c->input_req[c->key_at + digit] = "0123456789abcdef"[key & 15];
    }
    return send_request(c, c->input_req, c->input_req_len);
}

/* The connection broke or the server closed it. */
static void on_closed(struct conn *c) {
    if (g.mode == MODE_SSE) {
        if (c->saw_head && c->status == 200) g.closed_early += 1;
        else if (!c->saw_head) g.connect_failures += 1;
        finish(c);
        return;
    }
    close_conn(c);
    g.reconnects += 1;
    if (c->create_failed) schedule(c, ACT_CONNECT, 100 * NS_PER_MS);
    else start_connect(c);
}

/* ---- server-sent events ------------------------------------------------- */

static void on_event(struct conn *c, uint64_t now) {
    if (!c->got_first) {
        c->got_first = true;
        mark_settled(c);
        if (++g.first_count == g.streams) g.first_all_at = now;
    }
    if (!in_window(now)) return;
    g.events += 1;
    c->window_events += 1;
    if (c->data_overflow || c->data_len == 0 || c->data_len > 20) return;
    uint64_t v = 0;
    for (size_t i = 0; i < c->data_len; i++) {
        char ch = c->data[i];
        if (ch < '0' || ch > '9') return;
        v = v * 10 + (uint64_t)(ch - '0');
    }
    add_sample(now > v ? now - v : 0);
}

static void sse_line(struct conn *c, uint64_t now) {
    const char *line = c->line;
    size_t len = c->line_len;
    if (len == 0 && !c->line_overflow) { /* blank line: dispatch */
        if (c->has_data) {
            if (c->data_len > 0 && !c->data_overflow) c->data_len -= 1; /* trailing \n */
            on_event(c, now);
        }
        c->has_data = false;
        c->data_overflow = false;
        c->data_len = 0;
        c->event_len = 0;
        return;
    }
    if (line[0] == ':') return; /* comment */
    const char *colon = memchr(line, ':', len);
    size_t flen = colon ? (size_t)(colon - line) : len;
    const char *value = colon ? colon + 1 : line + len;
    size_t vlen = (size_t)(line + len - value);
    if (vlen > 0 && value[0] == ' ') { value++; vlen--; }
    if (flen == 4 && memcmp(line, "data", 4) == 0) {
        c->has_data = true;
        if (c->line_overflow || c->data_len + vlen + 1 > sizeof c->data) {
            c->data_overflow = true;
            return;
        }
        memcpy(c->data + c->data_len, value, vlen);
        c->data_len += vlen;
        c->data[c->data_len++] = '\n';
    } else if (flen == 5 && memcmp(line, "event", 5) == 0) {
        if (vlen > sizeof c->event) vlen = sizeof c->event;
        memcpy(c->event, value, vlen);
        c->event_len = vlen;
    }
    /* id, retry and unknown fields are ignored */
}

static void sse_bytes(struct conn *c, const char *p, size_t n, uint64_t now) {
    for (size_t i = 0; i < n; i++) {
        char ch = p[i];
        if (ch == '\n' || ch == '\r') {
            bool crlf = ch == '\n' && c->last_cr;
            c->last_cr = ch == '\r';
            if (crlf) continue;
            sse_line(c, now);
            c->line_len = 0;
            c->line_overflow = false;
            continue;
        }
        c->last_cr = false;
        if (c->line_len < sizeof c->line) c->line[c->line_len++] = ch;
        else c->line_overflow = true;
    }
}

/* ---- HTTP responses ----------------------------------------------------- */

static void body_bytes(struct conn *c, const char *p, size_t n, uint64_t now) {
    if (g.mode == MODE_SSE) { sse_bytes(c, p, n, now); return; }
    if (c->creating) {
        size_t room = sizeof c->body - 1 - c->body_len;
        if (n > room) n = room;
        memcpy(c->body + c->body_len, p, n);
        c->body_len += n;
    }
}

/* The "id" string of a JSON object, or NULL. */
static char *json_id(char *body) {
    char *p = strstr(body, "\"id\"");
    if (p == NULL) return NULL;
    p += 4;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    if (*p++ != ':') return NULL;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    if (*p++ != '"') return NULL;
    char *end = strchr(p, '"');
    if (end == NULL || end == p) return NULL;
    size_t len = (size_t)(end - p);
    char *id = xmalloc(len + 1);
    memcpy(id, p, len);
    id[len] = '\0';
    return id;
}

static void build_input_request(struct conn *c, const char *sid) {
    const char *tpl = g.input_path;
    const char *mark = strstr(tpl, "{sid}");
    char path[2048];
    if (mark != NULL)
        snprintf(path, sizeof path, "%.*s%s%s", (int)(mark - tpl), tpl, sid, mark + 5);
    else
        snprintf(path, sizeof path, "%s", tpl);
    size_t blen = strlen(g.body);
    size_t cap = strlen(path) + blen + 256;
    char *req = xmalloc(cap);
    /* 16 hex digits, written anew before each send (send_next_post). */
    const char *key = g.keyed ? "Idempotency-Key: 0000000000000000\r\n" : "";
    int n;
    if (blen > 0)
        n = snprintf(req, cap, "POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%s"
                     "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                     path, g.port, key, blen, g.body);
    else
        n = snprintf(req, cap, "POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%s"
                     "Content-Length: 0\r\n\r\n", path, g.port, key);
    c->key_at = g.keyed ? (size_t)(strstr(req, "Idempotency-Key: ") - req) + strlen("Idempotency-Key: ") : 0;
    free(c->input_req);
    c->input_req = req;
    c->input_req_len = (size_t)n;
}

/* A whole response arrived. Returns false if the connection must be closed. */
static bool on_response(struct conn *c, uint64_t now) {
    c->hstate = H_IDLE;
    if (g.mode == MODE_SSE) return false; /* the event stream ended */
    bool ok = c->status >= 200 && c->status < 300;
    if (!ok) g.errors += 1;
    if (c->creating) {
        char *id = NULL;
        if (ok) {
            c->body[c->body_len] = '\0';
            id = json_id(c->body);
        }
        if (id == NULL) {
            if (ok) {
                g.errors += 1;
                fprintf(stderr, "load: no \"id\" in the create answer: %.200s\n", c->body);
            }
            c->create_failed = true;
            if (c->close_after) return false;
            schedule(c, ACT_CREATE, 100 * NS_PER_MS);
            return true;
        }
        c->create_failed = false;
        build_input_request(c, id);
        free(id);
    } else if (c->sent_at >= g.wstart && now < g.wend) {
        g.requests += 1;
        add_sample(now - c->sent_at);
    }
    if (c->close_after) return false;
    if (now >= g.wend) return true; /* the run is over: send nothing more */
    return send_next_post(c);
}

static bool parse_head(struct conn *c) {
    char *h = c->head;
    h[c->head_len] = '\0';
    if (strncmp(h, "HTTP/1.", 7) != 0 || h[8] != ' ') return false;
    bool http10 = h[7] == '0';
    c->status = atoi(h + 9);
    bool chunked = false, has_length = false, keep_alive = false, close = false;
    uint64_t length = 0;
    char *line = strstr(h, "\r\n");
    while (line != NULL) {
        line += 2;
        char *end = strstr(line, "\r\n");
        if (end == NULL || end == line) break;
        *end = '\0';
        char *colon = strchr(line, ':');
        if (colon != NULL) {
            *colon = '\0';
            char *v = colon + 1;
            while (*v == ' ' || *v == '\t') v++;
            if (strcasecmp(line, "transfer-encoding") == 0 && strcasestr(v, "chunked")) chunked = true;
            else if (strcasecmp(line, "content-length") == 0) {
                has_length = true;
                length = strtoull(v, NULL, 10);
            } else if (strcasecmp(line, "connection") == 0) {
                if (strcasestr(v, "close")) close = true;
                if (strcasestr(v, "keep-alive")) keep_alive = true;
            }
        }
        line = end;
    }
    c->close_after = close || (http10 && !keep_alive);
    if ((c->status >= 100 && c->status < 200) || c->status == 204 || c->status == 304)
        c->body_mode = BODY_NONE;
    else if (chunked) { c->body_mode = BODY_CHUNKED; c->chstate = CH_SIZE; c->chunk_size = 0; }
    else if (has_length) { c->body_mode = length ? BODY_LENGTH : BODY_NONE; c->body_left = length; }
    else c->body_mode = BODY_CLOSE;
    return true;
}

/* Feeds received bytes. Returns false if the connection must be closed. */
static bool feed(struct conn *c, const char *p, size_t n, uint64_t now) {
    while (n > 0) {
        if (c->hstate == H_IDLE) return false; /* bytes nobody asked for */
        if (c->hstate == H_HEAD) {
            size_t old = c->head_len;
            size_t k = n < HEAD_MAX - old ? n : HEAD_MAX - old;
            memcpy(c->head + old, p, k);
            c->head_len += k;
            size_t from = old >= 3 ? old - 3 : 0;
            char *end = memmem(c->head + from, c->head_len - from, "\r\n\r\n", 4);
            if (end == NULL) {
                if (c->head_len >= HEAD_MAX) return false;
                return true; /* the whole chunk was taken */
            }
            size_t head_end = (size_t)(end - c->head) + 4;
            size_t used = head_end - old;
            p += used;
            n -= used;
            c->head_len = head_end;
            if (!parse_head(c)) {
                fprintf(stderr, "load: bad response head\n");
                return false;
            }
            c->head_len = 0;
            if (c->status >= 100 && c->status < 200) continue; /* interim: next head */
            if (!c->saw_head && g.mode == MODE_SSE) {
                if (c->status == 200) g.connected += 1;
                else {
                    g.refused += 1;
                    if (g.first_refused_status == 0) g.first_refused_status = c->status;
                }
            }
            c->saw_head = true;
            if (g.mode == MODE_SSE && c->status != 200) { finish(c); return true; }
            c->hstate = H_BODY;
            if (c->body_mode == BODY_NONE && !on_response(c, now)) return false;
            continue;
        }
        /* H_BODY */
        switch (c->body_mode) {
        case BODY_NONE:
            return false;
        case BODY_CLOSE:
            body_bytes(c, p, n, now);
            return true;
        case BODY_LENGTH: {
            size_t k = n < c->body_left ? n : (size_t)c->body_left;
            body_bytes(c, p, k, now);
            p += k; n -= k; c->body_left -= k;
            if (c->body_left == 0 && !on_response(c, now)) return false;
            continue;
        }
        case BODY_CHUNKED:
            break;
        }
        switch (c->chstate) {
        case CH_SIZE: {
            char ch = *p++; n--;
            int d = -1;
            if (ch >= '0' && ch <= '9') d = ch - '0';
            else if (ch >= 'a' && ch <= 'f') d = ch - 'a' + 10;
            else if (ch >= 'A' && ch <= 'F') d = ch - 'A' + 10;
            if (d >= 0) {
                if (c->chunk_size > (UINT64_MAX >> 4)) return false;
                c->chunk_size = c->chunk_size * 16 + (uint64_t)d;
            } else if (ch == '\n') {
                if (c->chunk_size == 0) { c->chstate = CH_TRAILER; c->trailer_line_len = 0; }
                else { c->chstate = CH_DATA; c->body_left = c->chunk_size; }
            } else if (ch != '\r') c->chstate = CH_EXT;
            break;
        }
        case CH_EXT: {
            char *nl = memchr(p, '\n', n);
            if (nl == NULL) return true;
            size_t used = (size_t)(nl - p);
            p += used; n -= used;
            c->chstate = CH_SIZE; /* the '\n' is handled there */
            break;
        }
        case CH_DATA: {
            size_t k = n < c->body_left ? n : (size_t)c->body_left;
            body_bytes(c, p, k, now);
            p += k; n -= k; c->body_left -= k;
            if (c->body_left == 0) c->chstate = CH_DATA_END;
            break;
        }
        case CH_DATA_END: {
            char ch = *p++; n--;
            if (ch == '\n') { c->chstate = CH_SIZE; c->chunk_size = 0; }
            break;
        }
        case CH_TRAILER: {
            char ch = *p++; n--;
            if (ch == '\n') {
                if (c->trailer_line_len == 0) {
                    if (!on_response(c, now)) return false;
                } else c->trailer_line_len = 0;
            } else if (ch != '\r') c->trailer_line_len++;
            break;
        }
        }
    }
    return true;
}

/* ---- event handling ----------------------------------------------------- */

static void on_connected(struct conn *c) {
    c->state = C_OPEN;
    if (g.mode == MODE_SSE) {
        if (!send_request(c, g.sse_req, g.sse_req_len)) on_closed(c);
    } else {
        if (!send_next_post(c)) on_closed(c);
    }
}

static void on_readable(struct conn *c) {
    for (int round = 0; round < 4; round++) {
        ssize_t n = recv(c->fd, g_rbuf, sizeof g_rbuf, 0);
        if (n > 0) {
            uint32_t gen = c->gen;
            if (!feed(c, g_rbuf, (size_t)n, now_ns())) {
                if (c->gen == gen) on_closed(c);
                return;
            }
            if (c->gen != gen || c->state != C_OPEN) return;
            if ((size_t)n < sizeof g_rbuf) return;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        /* end of file or error */
        if (n == 0 && c->hstate == H_BODY && c->body_mode == BODY_CLOSE) {
            uint32_t gen = c->gen;
            c->close_after = true;
            on_response(c, now_ns());
            if (c->gen != gen) return;
        }
        on_closed(c);
        return;
    }
}

static void on_epoll(struct epoll_event *ev) {
    uint32_t idx = (uint32_t)(ev->data.u64 >> 32);
    uint32_t gen = (uint32_t)ev->data.u64;
    if (idx >= g.nconns) return;
    struct conn *c = &g.conns[idx];
    if (c->gen != gen || c->fd < 0) return;
    if (c->state == C_CONNECTING) {
        int err = 0;
        socklen_t len = sizeof err;
        if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
        if (err != 0) {
            if (g.connect_failures == 0)
                fprintf(stderr, "load: connect: %s\n", strerror(err));
            close_conn(c);
            connect_failed(c);
            return;
        }
        if (!(ev->events & EPOLLOUT)) {
            close_conn(c);
            connect_failed(c);
            return;
        }
        on_connected(c);
        return;
    }
    if (c->state != C_OPEN) return;
    if ((ev->events & EPOLLOUT) && c->wbuf != NULL && c->woff < c->wlen) {
        if (!flush_write(c)) { on_closed(c); return; }
    }
    if (ev->events & (EPOLLIN | EPOLLHUP | EPOLLERR)) on_readable(c);
}

static void run_retries(uint64_t now) {
    size_t i = 0;
    while (i < g.nretries) {
        struct retry r = g.retries[i];
        if (r.due > now) { i++; continue; }
        g.retries[i] = g.retries[--g.nretries];
        struct conn *c = &g.conns[r.idx];
        if (c->gen != r.gen || c->state == C_DONE) continue;
        if (r.act == ACT_CONNECT) {
            if (c->state != C_CLOSED) continue;
            /* sse: give up connecting once the run has settled */
            if (g.mode == MODE_SSE && g.settle_at != 0) { g.connect_failures += 1; finish(c); continue; }
            start_connect(c);
        } else if (c->state == C_OPEN && c->hstate == H_IDLE) {
            if (!send_next_post(c)) on_closed(c);
        }
    }
}

/* ---- output ------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double percentile_ms(double p) {
    if (g.nsamples == 0) return -1;
    size_t rank = (size_t)(p * (double)g.nsamples + 0.999999);
    if (rank < 1) rank = 1;
    if (rank > g.nsamples) rank = g.nsamples;
    return (double)g.samples[rank - 1] / 1e6;
}

static void report(uint64_t end) {
    qsort(g.samples, g.nsamples, sizeof *g.samples, cmp_u64);
    double p50 = percentile_ms(0.50), p99 = percentile_ms(0.99), mx = percentile_ms(1.0);
    /* the measured window, cut short if the hard deadline came first */
    double measured = 0;
    if (g.wstart != UINT64_MAX && end > g.wstart)
        measured = (double)((end < g.wend ? end : g.wend) - g.wstart) / 1e9;
    if (g.mode == MODE_SSE) {
        long with_events = 0, unanswered = 0;
        for (long i = 0; i < g.nconns; i++) {
            if (g.conns[i].window_events > 0) with_events++;
            if (!g.conns[i].saw_head) unanswered++;
        }
        if (g.connect_failures > 0)
            fprintf(stderr, "load: %ld connect failures\n", g.connect_failures);
        double first = g.first_all_at ? (double)(g.first_all_at - g.start) / 1e9 : -1;
        printf("{\"mode\":\"sse\",\"streams\":%ld,\"connected\":%ld,\"refused\":%ld,"
               "\"firstRefusedStatus\":%d,\"closedEarly\":%ld,\"unanswered\":%ld,"
               "\"events\":%llu,\"seconds\":%g,\"eventsPerSecond\":%.1f,"
               "\"p50Ms\":%.3f,\"p99Ms\":%.3f,\"maxMs\":%.3f,"
               "\"firstEventSeconds\":%.3f,\"streamsWithEvents\":%ld}\n",
               g.streams, g.connected, g.refused, g.first_refused_status, g.closed_early,
               unanswered, (unsigned long long)g.events, g.seconds,
               measured > 0 ? (double)g.events / measured : 0.0, p50, p99, mx, first, with_events);
    } else {
        printf("{\"mode\":\"post\",\"connections\":%ld,\"requests\":%llu,\"seconds\":%g,"
               "\"requestsPerSecond\":%.1f,\"p50Ms\":%.3f,\"p99Ms\":%.3f,\"maxMs\":%.3f,"
               "\"errors\":%llu,\"reconnects\":%llu}\n",
               g.connections, (unsigned long long)g.requests, g.seconds,
               measured > 0 ? (double)g.requests / measured : 0.0, p50, p99, mx,
               (unsigned long long)g.errors, (unsigned long long)g.reconnects);
    }
    fflush(stdout);
}

/* ---- main --------------------------------------------------------------- */

static void usage(void) {
    fprintf(stderr,
        "usage: load sse  --port P [--path /api/tick/SID/events] [--streams N] [--seconds S]\n"
        "                 [--warmup-seconds W (default 2)]\n"
        "       load post --port P [--connections C] [--seconds S] [--create /api/simple]\n"
        "                 [--input-path /api/simple/{sid}/inputs/buttonTap]\n"
        "                 [--warmup-seconds W (default 1)] [--body JSON] [--keyed]\n");
    exit(2);
}

static double parse_double(const char *s, double min, double max) {
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !(v >= min && v <= max)) usage();
    return v;
}

int main(int argc, char **argv) {
    if (argc < 2) usage();
    if (strcmp(argv[1], "sse") == 0) g.mode = MODE_SSE;
    else if (strcmp(argv[1], "post") == 0) g.mode = MODE_POST;
    else usage();
    g.port = -1;
    g.path = "/events";
    g.create_path = "/api/simple";
    g.input_path = "/api/simple/{sid}/inputs/buttonTap";
    g.body = "";
    g.streams = 1000;
    g.connections = 64;
    g.seconds = 5;
    g.warmup = g.mode == MODE_SSE ? 2 : 1;
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i];
        if (strcmp(o, "--keyed") == 0) {
            g.keyed = true;
            continue;
        }
        if (i + 1 >= argc) usage();
        const char *v = argv[++i];
        if (strcmp(o, "--port") == 0) g.port = (int)parse_double(v, 1, 65535);
        else if (strcmp(o, "--path") == 0) g.path = v;
        else if (strcmp(o, "--streams") == 0) g.streams = (long)parse_double(v, 1, 1000000);
        else if (strcmp(o, "--connections") == 0) g.connections = (long)parse_double(v, 1, 1000000);
        else if (strcmp(o, "--seconds") == 0) g.seconds = parse_double(v, 0.001, 86400);
        else if (strcmp(o, "--warmup-seconds") == 0) g.warmup = parse_double(v, 0, 86400);
        else if (strcmp(o, "--create") == 0) g.create_path = v;
        else if (strcmp(o, "--input-path") == 0) g.input_path = v;
        else if (strcmp(o, "--body") == 0) g.body = v;
        else usage();
    }
    if (g.port < 0) usage();
    signal(SIGPIPE, SIG_IGN);

    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    g.nconns = g.mode == MODE_SSE ? g.streams : g.connections;
    if ((rlim_t)g.nconns + 16 > rl.rlim_cur)
        fprintf(stderr, "load: warning: %ld connections but only %llu file descriptors\n",
                g.nconns, (unsigned long long)rl.rlim_cur);

    memset(&g.addr, 0, sizeof g.addr);
    g.addr.sin_family = AF_INET;
    g.addr.sin_port = htons((uint16_t)g.port);
    g.addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

    g.sse_req = xmalloc(strlen(g.path) + 128);
    g.sse_req_len = (size_t)sprintf(g.sse_req,
        "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAccept: text/event-stream\r\n\r\n", g.path, g.port);
    g.create_req = xmalloc(strlen(g.create_path) + 128);
    g.create_req_len = (size_t)sprintf(g.create_req,
        "POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: 0\r\n\r\n", g.create_path, g.port);

    g.ep = epoll_create1(EPOLL_CLOEXEC);
    if (g.ep < 0) { perror("load: epoll_create1"); return 1; }
    g.conns = calloc((size_t)g.nconns, sizeof *g.conns);
    if (g.conns == NULL) { fprintf(stderr, "load: out of memory\n"); return 1; }

    uint64_t warm = (uint64_t)(g.warmup * 1e9), span = (uint64_t)(g.seconds * 1e9);
    g.start = now_ns();
    g.hard_deadline = g.start + warm + span + HARD_EXTRA_NS;
    if (g.mode == MODE_SSE) { g.wstart = UINT64_MAX; g.wend = UINT64_MAX; }
    else { g.wstart = g.start + warm; g.wend = g.wstart + span; }

    for (long i = 0; i < g.nconns; i++) {
        struct conn *c = &g.conns[i];
        c->fd = -1;
        c->head = xmalloc(HEAD_MAX + 1);
        start_connect(c);
    }
    fprintf(stderr, "load: %s: %ld connections to 127.0.0.1:%d started in %.3f s\n",
            argv[1], g.nconns, g.port, (double)(now_ns() - g.start) / 1e9);

    enum { MAX_EVENTS = 1024 };
    static struct epoll_event evs[MAX_EVENTS];
    uint64_t next_progress = g.start + NS_PER_S;
    uint64_t end;
    for (;;) {
        uint64_t now = now_ns();
        end = now;
        if (now >= g.hard_deadline) {
            fprintf(stderr, "load: hard deadline reached\n");
            break;
        }
        if (g.mode == MODE_SSE && g.settle_at == 0 &&
            (g.settled >= g.nconns || now >= g.start + SETTLE_CAP_NS)) {
            g.settle_at = now;
            g.wstart = now + warm;
            g.wend = g.wstart + span;
            fprintf(stderr, "load: settled at %.3f s (%ld streams with events); measuring %.3f..%.3f s\n",
                    (double)(now - g.start) / 1e9, g.first_count,
                    (double)(g.wstart - g.start) / 1e9, (double)(g.wend - g.start) / 1e9);
        }
        if (now >= g.wend) break;
        if (now >= next_progress) {
            next_progress += NS_PER_S;
            if (g.mode == MODE_SSE)
                fprintf(stderr, "load: %.0f s: connected %ld, with events %ld, window events %llu\n",
                        (double)(now - g.start) / 1e9, g.connected, g.first_count,
                        (unsigned long long)g.events);
            else
                fprintf(stderr, "load: %.0f s: requests %llu, errors %llu\n",
                        (double)(now - g.start) / 1e9, (unsigned long long)g.requests,
                        (unsigned long long)g.errors);
        }
        if (g.nretries > 0) run_retries(now);
        int n = epoll_wait(g.ep, evs, MAX_EVENTS, 10);
        if (n < 0) {
            if (errno == EINTR) continue;
            perror("load: epoll_wait");
            break;
        }
        for (int i = 0; i < n; i++) on_epoll(&evs[i]);
    }
    report(end);
    return 0;
}
