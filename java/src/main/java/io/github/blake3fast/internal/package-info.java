/**
 * Internal: not API, may change or go in any release. Code shared by the library's own packages;
 * the module descriptor does not export this package.
 */
package io.github.blake3fast.internal;
