/**
 * Bao verified streaming over BLAKE3: {@link io.github.blake3fast.bao.Blake3Bao} writes combined
 * encodings, outboards and slices, and {@link io.github.blake3fast.bao.Blake3BaoDecoder} reads
 * them back, verifying every byte against the content's 32-byte BLAKE3 hash before returning it
 * (a mismatch is a {@link io.github.blake3fast.bao.Blake3BaoException} naming the node).
 *
 * <p>This package is a layer on the core package's public API: it hashes through
 * {@link io.github.blake3fast.Blake3} and {@link io.github.blake3fast.Blake3Hazmat} (whose batched
 * {@code hashSubtrees} and {@code mergeSubtrees} give many chunk groups' and parents' chaining
 * values per call), on whichever engine the library chose.
 */
package io.github.blake3fast.bao;
