// libpq (PostgreSQL's C client, Debian libpq-dev) for Swift, and poll(2) for
// the listener's wait on its socket. Nothing else belongs here.
#ifndef BINDERY_CLIBPQ_SHIM_H
#define BINDERY_CLIBPQ_SHIM_H

#include <libpq-fe.h>
#include <poll.h>

#endif
