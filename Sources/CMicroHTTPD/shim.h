// Thin shim over libmicrohttpd for Swift: the variadic MHD_start_daemon and
// the macros Swift cannot import, the epoll and eventfd headers Glibc
// does not bring (for the hang-up watcher, on Linux), and the socket calls a
// stream's bounds need (ioctl is variadic). Nothing else belongs here.
#ifndef BINDERY_CMICROHTTPD_SHIM_H
#define BINDERY_CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>
/* The hang-up watcher watches streams' sockets beside libmicrohttpd: with epoll on
   Linux, with poll(2) anywhere. */
#include <poll.h>
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
/* Linux's POLLRDHUP (the peer closed), which glibc declares only under _GNU_SOURCE. */
static const short bindery_pollrdhup = 0x2000;
#endif
/* A stream's socket: what its kernel holds, and how it ends. */
#include <sys/ioctl.h>
#ifdef __linux__
#include <linux/sockios.h>
#endif

/// The settings Bindery starts a daemon with; every limit is explicit.
typedef struct bindery_mhd_settings {
    uint16_t port;                    /* 0 picks a free port */
    unsigned int thread_pool_size;
    unsigned int connection_limit;
    size_t connection_memory_limit;   /* per-connection memory pool, bytes */
    unsigned int connection_timeout;  /* seconds of inactivity */
    unsigned int per_ip_connection_limit; /* 0 = unlimited */
    uint32_t ipv4_address;            /* the address to bind, in network byte order */
    int use_poll;                     /* poll(2) rather than epoll (which only Linux has) */
} bindery_mhd_settings;

/// The callbacks of a daemon, all with the same closure.
typedef struct bindery_mhd_callbacks {
    MHD_AccessHandlerCallback request;
    MHD_RequestCompletedCallback completed;
    MHD_NotifyConnectionCallback connection;
    /* Sees each request line's target before libmicrohttpd decodes it. */
    void *(*request_line)(void *cls, const char *uri, struct MHD_Connection *connection);
    void *cls;
} bindery_mhd_callbacks;

/// Where libmicrohttpd's messages go, already formatted: owned by the caller
/// of bindery_mhd_start, and alive until MHD_stop_daemon has returned.
typedef struct bindery_mhd_logger {
    void (*log)(void *cls, const char *message);
    void *cls;
} bindery_mhd_logger;

static void bindery_mhd_log_formatted(void *cls, const char *format, va_list arguments) {
    char message[512];
    vsnprintf(message, sizeof message, format, arguments);
    const bindery_mhd_logger *logger = cls;
    logger->log(logger->cls, message);
}

/// Starts a daemon (epoll, or poll(2) where asked) with an internal thread pool,
/// suspend/resume, and inter-thread signalling (which MHD_quiesce_daemon needs with threads).
static inline struct MHD_Daemon *bindery_mhd_start(const bindery_mhd_settings *s, const bindery_mhd_callbacks *c,
                                                   bindery_mhd_logger *logger)
{
    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(s->port);
    addr.sin_addr.s_addr = s->ipv4_address;
    unsigned int flags = (s->use_poll ? MHD_USE_POLL_INTERNAL_THREAD : MHD_USE_EPOLL_INTERNAL_THREAD)
        | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC | MHD_USE_ERROR_LOG;
    /* One worker is the daemon's own thread: a pool size of 0 or 1 is "ignored" with a
       warning, so the option is given only for a pool (an empty array otherwise). */
    struct MHD_OptionItem pool[] = {
        {s->thread_pool_size > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, (intptr_t)s->thread_pool_size, NULL},
        {MHD_OPTION_END, 0, NULL},
    };
    return MHD_start_daemon(
        flags, s->port, NULL, NULL, c->request, c->cls,
        /* First, so that even errors in the options below are logged here. */
        MHD_OPTION_EXTERNAL_LOGGER, bindery_mhd_log_formatted, logger,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
        MHD_OPTION_ARRAY, pool,
        MHD_OPTION_CONNECTION_LIMIT, s->connection_limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, s->connection_memory_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, s->connection_timeout,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, s->per_ip_connection_limit,
        MHD_OPTION_NOTIFY_COMPLETED, c->completed, c->cls,
        MHD_OPTION_NOTIFY_CONNECTION, c->connection, c->cls,
        MHD_OPTION_URI_LOG_CALLBACK, c->request_line, c->cls,
        MHD_OPTION_END);
}

/// The port a daemon listens on (useful after starting on port 0).
static inline uint16_t bindery_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// The context a connection was given when it started (MHD_CONNECTION_NOTIFY_STARTED).
static inline void *bindery_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/// The client's address as text (`203.0.113.7`, `2001:db8::1`) in `text`, or "" if unknown.
static inline void bindery_mhd_client_address(struct MHD_Connection *connection, char *text, socklen_t size) {
    text[0] = 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr) return;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, text, size);
    } else if (address->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, text, size);
    }
}

/// The socket of a connection, or MHD_INVALID_SOCKET.
static inline int bindery_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : MHD_INVALID_SOCKET;
}

/// Bytes the kernel holds to send on socket `fd`, unsent or sent and not yet
/// acknowledged by the peer; -1 if it cannot tell.
static inline int bindery_socket_unacknowledged(int fd) {
#ifdef SIOCOUTQ
    int bytes = 0;
    return ioctl(fd, SIOCOUTQ, &bytes) == 0 ? bytes : -1;
#else
    return -1;
#endif
}

/// Caps what the kernel holds to send on `fd` (it doubles `bytes` for its
/// bookkeeping), instead of letting it grow to tcp_wmem's most; 0 if done.
static inline int bindery_socket_bound_send_buffer(int fd, int bytes) {
    return setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes);
}

/// Makes the close of `fd` a reset: what the kernel holds to send is dropped
/// at once, rather than held by a closing socket whose peer takes nothing.
static inline int bindery_socket_reset_on_close(int fd) {
    struct linger linger = {1, 0};
    return setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, sizeof linger);
}

static inline int bindery_mhd_connection_started(enum MHD_ConnectionNotificationCode code) { return code == MHD_CONNECTION_NOTIFY_STARTED; }
static inline int bindery_mhd_connection_closed(enum MHD_ConnectionNotificationCode code) { return code == MHD_CONNECTION_NOTIFY_CLOSED; }
static inline ssize_t bindery_mhd_reader_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t bindery_mhd_reader_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }
static inline uint64_t bindery_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }
static inline int bindery_mhd_invalid_socket(void) { return MHD_INVALID_SOCKET; }

#endif
