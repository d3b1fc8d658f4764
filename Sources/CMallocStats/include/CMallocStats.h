// glibc's heap figures, which Swift's Glibc module does not expose.
#ifndef BINDERY_CMALLOCSTATS_H
#define BINDERY_CMALLOCSTATS_H
#include <stddef.h>

/// Bytes the process has allocated with malloc and not freed (glibc's mallinfo2:
/// uordblks + hblkhd), however fragmented the heap: what a leak makes grow.
size_t bindery_heap_bytes_in_use(void);

#endif
