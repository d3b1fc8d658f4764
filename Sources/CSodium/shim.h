// libsodium (Debian libsodium-dev) for Swift: random bytes, SHA-256 and constant-time
// comparison for the browsers' sign-in tokens. Vetted crypto, none of our own.
#ifndef BINDERY_CSODIUM_SHIM_H
#define BINDERY_CSODIUM_SHIM_H

#include <sodium.h>

#endif
