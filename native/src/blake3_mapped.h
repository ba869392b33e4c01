/*
 * blake3-fast: hashing a range of a file through a memory mapping, with SIGBUS caught.
 * Used by the JNI glue only (blake3_jni.c, hashMapped).
 */
#ifndef BLAKE3_MAPPED_H
#define BLAKE3_MAPPED_H

#include "blake3_impl.h"

/* Not done; nothing was read. The caller reads the range another way (pread). */
#define B3M_UNAVAILABLE (-1)
/* Reading the mapping raised SIGBUS: the file shrank below the range, or its storage failed.
 * cvs_out holds nothing usable; the caller reads the range with read(2) to learn which. */
#define B3M_FAULT (-2)

/*
 * blake3_hash_subtrees over bytes [pos, pos + len) of the open file fd, read through a
 * shared read-only mapping of exactly that range (widened down to a page boundary), which is
 * unmapped before returning. The caller has checked that the range lies within the file as it
 * was when opened and that len is a positive multiple of the chunk length. Returns the number
 * of subtrees, or B3M_UNAVAILABLE / B3M_FAULT.
 */
int blake3_hash_mapped(const blake3_kernel *k, int fd, uint64_t pos, size_t len,
                       const uint32_t key[8], uint64_t counter, uint8_t flags, uint32_t *cvs_out);

#endif
