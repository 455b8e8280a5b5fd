#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call: these
   fixed-argument wrappers are the only C the HTTP endpoint needs. */

static inline struct MHD_Daemon *shipquote_mhd_start(unsigned int flags, const struct sockaddr *address,
                                                     MHD_AccessHandlerCallback handler, void *context) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)10,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned int)64,
                            MHD_OPTION_END);
}

static inline uint16_t shipquote_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* The quote gateway's daemon: answers are queued from other threads (suspend/resume), and every
   bound is the caller's: the idle timeout of a connection, how many are open at once, the memory
   a connection may use for its request line and headers, and a callback when a request ends. */
static inline struct MHD_Daemon *shipquote_mhd_start_gateway(unsigned int flags, const struct sockaddr *address,
                                                             MHD_AccessHandlerCallback handler, void *context,
                                                             unsigned int connectionTimeout, unsigned int connectionLimit,
                                                             size_t connectionMemoryLimit,
                                                             MHD_RequestCompletedCallback completed, void *completedContext) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_CONNECTION_TIMEOUT, connectionTimeout,
                            MHD_OPTION_CONNECTION_LIMIT, connectionLimit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connectionMemoryLimit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completedContext,
                            MHD_OPTION_END);
}

/* Where libmicrohttpd's error log goes when a TLS daemon starts: its messages one after the
   other (as many as fit), so that a refused certificate or key is named with GnuTLS's reason
   rather than "could not start". */
struct shipquote_mhd_error {
    char message[512];
};

static inline void shipquote_mhd_log_error(void *cls, const char *format, va_list arguments) {
    struct shipquote_mhd_error *error = (struct shipquote_mhd_error *)cls;
    size_t used = strnlen(error->message, sizeof error->message);
    if (used + 1 < sizeof error->message) {
        vsnprintf(error->message + used, sizeof error->message - used, format, arguments);
    }
}

/* The gateway's daemon over TLS (GnuTLS): certificate and key as NUL-terminated PEM, the key's
   password or NULL. `error` receives libmicrohttpd's messages; it must outlive the daemon. */
static inline struct MHD_Daemon *shipquote_mhd_start_gateway_tls(unsigned int flags, const struct sockaddr *address,
                                                                 MHD_AccessHandlerCallback handler, void *context,
                                                                 unsigned int connectionTimeout, unsigned int connectionLimit,
                                                                 size_t connectionMemoryLimit,
                                                                 MHD_RequestCompletedCallback completed, void *completedContext,
                                                                 const char *certificatePEM, const char *keyPEM, const char *keyPassword,
                                                                 struct shipquote_mhd_error *error) {
    flags |= MHD_USE_TLS | MHD_USE_ERROR_LOG;
    /* Without a password the list ends where the password option would stand. */
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, context,
                            MHD_OPTION_EXTERNAL_LOGGER, shipquote_mhd_log_error, (void *)error,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_CONNECTION_TIMEOUT, connectionTimeout,
                            MHD_OPTION_CONNECTION_LIMIT, connectionLimit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connectionMemoryLimit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completedContext,
                            MHD_OPTION_HTTPS_MEM_CERT, certificatePEM,
                            MHD_OPTION_HTTPS_MEM_KEY, keyPEM,
                            keyPassword != NULL ? MHD_OPTION_HTTPS_KEY_PASSWORD : MHD_OPTION_END, keyPassword,
                            MHD_OPTION_END);
}
