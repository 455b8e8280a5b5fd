#include <stdarg.h>
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
