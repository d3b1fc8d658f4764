// zlib (Debian zlib1g-dev) and Brotli's encoder (libbrotli-dev) for Swift: the
// client's and the app's static files compressed once, as a browser asks for them.
#ifndef BINDERY_CCOMPRESSION_SHIM_H
#define BINDERY_CCOMPRESSION_SHIM_H

#include <zlib.h>
#include <brotli/encode.h>

// deflateInit2 is a macro in zlib.h: Swift cannot call it.
static inline int bindery_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
}

#endif
