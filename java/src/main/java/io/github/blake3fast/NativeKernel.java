package io.github.blake3fast;

import java.io.FileDescriptor;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The kernel backed by the native library, for one ISA: every call is one or a few calls of
 * {@link NativeBlake3}, each hashing a whole run of work (a one-shot input, up to 4 MiB of
 * subtrees, up to 256 messages, up to 256 parents). One-shots of up to a chunk with a 32-byte
 * result go through {@link ChunkSlots}.
 *
 * <p>How the library reaches a {@code byte[]} is a rule of its own, by length: up to
 * {@link NativeBlake3#COPY_LEN} bytes it copies them, longer inputs it pins (a JNI critical
 * section). Pinning is kept where the collector pins a region ({@link CriticalArrays}); where
 * the JVM would implement the critical section with the GC locker, this class cuts every call on
 * an array at {@code COPY_LEN} bytes, so that nothing is ever pinned there.
 */
final class NativeKernel implements Kernel {
  // Every method checks the range the C side will touch against the array or buffer it gets,
  // right before the call: the public API checked the caller's arguments already, but a hasher
  // shared by threads against its contract (or a bug in the tree driver) must end in an
  // exception, never in C reading or writing outside a Java object. A few ns per call.

  private final int isa;
  private final String name;
  private final boolean pin;
  /** The most array bytes one call takes: more are pinned, which only a pinning kernel allows. */
  private final int arrayCall;
  /** Where one-shots of up to a chunk go; null without direct memory for them. */
  private final ChunkSlots slots;

  /** The kernel the loader picks: pins where {@link CriticalArrays} says the collector allows it. */
  NativeKernel(int isa) {
    this(isa, CriticalArrays.PIN);
  }

  /** A kernel that pins long array inputs or never does (tests run both on one JVM). */
  NativeKernel(int isa, boolean pin) {
    this(isa, pin, ChunkSlots.create());
  }

  /** As above, its short one-shots through {@code slots}, or all through the general call if null. */
  NativeKernel(int isa, boolean pin, ChunkSlots slots) {
    this.isa = isa;
    this.pin = pin;
    this.arrayCall = pin ? MAX_CALL : NativeBlake3.COPY_LEN;
    this.name = "native-" + NativeBlake3.ISA_NAMES[isa];
    this.slots = slots;
  }

  int isa() {
    return isa;
  }

  /** Whether this kernel hands the library array inputs long enough to be pinned. */
  boolean pins() {
    return pin;
  }

  /** Whether its short one-shots go through slots (else all through the general call). */
  boolean hasSlots() {
    return slots != null;
  }

  @Override
  public String name() {
    return name;
  }

  /**
   * 64 KiB, measured streaming 1 MiB in 64-byte updates (JMH StreamBench, AVX-512): faster than
   * 16 KiB, whose 16 chunks end in four narrow parent levels each, and than 32 KiB; 128 KiB
   * gained nothing more in a timing loop (figures in bench/notes/decisions.md).
   */
  @Override
  public int bufferSize() {
    return 64 * Spec.CHUNK_LEN;
  }

  @Override
  public int hashSubtrees(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs, int cvsOff) {
    Objects.checkFromIndexSize(off, len, in.length);
    if (len <= arrayCall) {
      return NativeBlake3.hashSubtrees(isa, in, off, len, key, counter, flags, NativeBlake3.ANY_SIZE, cvs, cvsOff);
    }
    return hashSubtreesInCalls(in, off, len, key, counter, flags, cvs, cvsOff);
  }

  /**
   * {@link #hashSubtrees} in calls of at most {@link #arrayCall} bytes: the maximal aligned
   * subtrees left to right, consecutive ones hashed in one call while they fit in it; one
   * larger than a call is hashed a call at a time (aligned pieces of a power of two) and its
   * pieces merged as they come, one merge per trailing zero bit of the number done. The merge
   * stack is the caller's room for values past those written so far (at most 7 pieces deep).
   */
  private int hashSubtreesInCalls(byte[] in, int off, int len, int[] key, long c, int flags, int[] cvs,
      int cvsOff) {
    final long callChunks = arrayCall / Spec.CHUNK_LEN;
    long chunks = len / Spec.CHUNK_LEN;
    int count = 0;
    while (chunks > 0) {
      long size = Spec.subtreeChunks(c, chunks);
      if (size <= callChunks) {
        long span = size;
        while (span < chunks && span + Spec.subtreeChunks(c + span, chunks - span) <= callChunks) {
          span += Spec.subtreeChunks(c + span, chunks - span);
        }
        count += NativeBlake3.hashSubtrees(isa, in, off, (int) span * Spec.CHUNK_LEN, key, c, flags,
            NativeBlake3.ANY_SIZE, cvs, cvsOff + 8 * count);
        size = span;
      } else {
        int base = cvsOff + 8 * count;
        int depth = 0;
        for (long done = 0; done < size; done += callChunks) {
          NativeBlake3.hashSubtrees(isa, in, off + (int) (done * Spec.CHUNK_LEN), arrayCall, key, c + done, flags,
              NativeBlake3.ANY_SIZE, cvs, base + 8 * depth);
          depth++;
          for (long pieces = done / callChunks + 1; (pieces & 1) == 0; pieces >>= 1) {
            depth--;
            Compress.parentCv(key, flags, cvs, base + 8 * (depth - 1), cvs, base + 8 * (depth - 1));
          }
        }
        count++;
      }
      off += (int) size * Spec.CHUNK_LEN;
      c += size;
      chunks -= size;
    }
    return count;
  }

  @Override
  public boolean supportsDirect() {
    return true;
  }

  @Override
  public int hashSubtrees(ByteBuffer direct, int off, int len, int[] key, long counter, int flags, int[] cvs,
      int cvsOff) {
    Objects.checkFromIndexSize(off, len, direct.capacity());
    return NativeBlake3.hashSubtreesDirect(isa, direct, off, len, key, counter, flags, NativeBlake3.ANY_SIZE, cvs,
        cvsOff);
  }

  @Override
  public int hashMapped(FileDescriptor fd, long pos, int len, long size, int[] key, long counter, int flags,
      int[] cvs, int cvsOff) {
    Objects.requireNonNull(fd, "fd");
    Objects.checkFromIndexSize(pos, len, size);
    if (len <= 0 || len % Spec.CHUNK_LEN != 0) {
      throw new IllegalArgumentException("not a positive number of whole chunks: " + len);
    }
    return NativeBlake3.hashMapped(isa, fd, pos, len, key, counter, flags, cvs, cvsOff);
  }

  /** One call for any input a call may take, whatever the output's length. */
  @Override
  public boolean hashesWhole(int len, int outLen) {
    return len <= arrayCall;
  }

  @Override
  public void hashWhole(byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff, int outLen) {
    Objects.checkFromIndexSize(off, len, in.length);
    Objects.checkFromIndexSize(outOff, outLen, out.length);
    if (!hashesWhole(len, outLen)) {
      throw new IllegalArgumentException("no whole-input call for " + len + " bytes");
    }
    // A null key is the IV in C: one array fewer to copy in.
    int[] k = key == Spec.iv() ? null : key;
    if (len <= Spec.CHUNK_LEN && outLen == Spec.OUT_LEN && slots != null
        && slots.hash(isa, in, off, len, k, flags, out, outOff)) {
      return;
    }
    NativeBlake3.hashOneShot(isa, in, off, len, k, flags, 0, out, outOff, outLen);
  }

  @Override
  public void rootOutput(int[] cv, int[] block, int blockLen, int flags, long position, byte[] out, int outOff,
      int outLen) {
    Objects.checkFromIndexSize(outOff, outLen, out.length);
    NativeBlake3.rootOutput(isa, cv, block, blockLen, flags, position, out, outOff, outLen);
  }

  /**
   * Messages longer than this are hashed one by one (one native one-shot each, whose tree
   * fills the lanes by itself); shorter ones go to the native batch, up to
   * {@link NativeBlake3#MANY_MAX} messages per call. The C batch takes up to 8 chunks a message
   * (B3B_MAX_CHUNKS in blake3_batch.c).
   */
  static final int MANY_MAX_LEN = 8 * Spec.CHUNK_LEN;

  @Override
  public void hashMany(byte[] data, int[] offsets, int[] lengths, int from, int count, int[] key, int flags,
      byte[] out, int outOff) {
    Objects.checkFromIndexSize(from, count, Math.min(offsets.length, lengths.length));
    Objects.checkFromIndexSize(outOff, Spec.OUT_LEN * count, out.length);
    int[] k = key == Spec.iv() ? null : key;
    int end = from + count;
    int i = from;
    while (i < end) {
      int at = outOff + Spec.OUT_LEN * (i - from);
      if (lengths[i] > MANY_MAX_LEN) {
        OneShot.hash(this, data, offsets[i], lengths[i], key, flags, out, at, Spec.OUT_LEN);
        i++;
        continue;
      }
      // A run of short messages; where nothing may be pinned, their bytes fit one copy.
      int j = i;
      long bytes = 0;
      long lo = Long.MAX_VALUE;
      long hi = 0;
      while (j < end && j - i < NativeBlake3.MANY_MAX && lengths[j] <= MANY_MAX_LEN
          && (pin || bytes + lengths[j] <= arrayCall)) {
        // Every range is checked here again, right before C reads it: see the class comment.
        Objects.checkFromIndexSize(offsets[j], lengths[j], data.length);
        bytes += lengths[j];
        lo = Math.min(lo, offsets[j]);
        hi = Math.max(hi, (long) offsets[j] + lengths[j]);
        j++;
      }
      if (pin || hi - lo <= arrayCall) {
        NativeBlake3.hashMany(isa, data, offsets, lengths, i, j - i, k, flags, out, at);
      } else {
        manyPacked(data, offsets, lengths, i, j - i, (int) bytes, k, flags, out, at);
      }
      i = j;
    }
  }

  /** Messages scattered wider than one copy, packed side by side first (their bytes fit one). */
  private void manyPacked(byte[] data, int[] offsets, int[] lengths, int from, int count, int bytes, int[] key,
      int flags, byte[] out, int outOff) {
    byte[] packed = new byte[bytes];
    int[] packedOffsets = new int[count];
    int[] packedLengths = java.util.Arrays.copyOfRange(lengths, from, from + count);
    int at = 0;
    for (int i = 0; i < count; i++) {
      System.arraycopy(data, offsets[from + i], packed, at, lengths[from + i]);
      packedOffsets[i] = at;
      at += lengths[from + i];
    }
    NativeBlake3.hashMany(isa, packed, packedOffsets, packedLengths, 0, count, key, flags, out, outOff);
  }

  // Bao trees: many groups or parents per call.

  @Override
  public void groupCvs(byte[] in, int off, int groups, int groupLog, int[] key, long counter, int flags,
      byte[] out, int outOff) {
    int groupLen = Spec.CHUNK_LEN << groupLog;
    Objects.checkFromIndexSize(off, groups * groupLen, in.length);
    Objects.checkFromIndexSize(outOff, Spec.OUT_LEN * groups, out.length);
    if (groupLen > arrayCall) { // a group per call, cut and merged by hashSubtrees
      Kernel.super.groupCvs(in, off, groups, groupLog, key, counter, flags, out, outOff);
      return;
    }
    int[] cvs = new int[8 * GROUPS_PER_CALL];
    int perCall = Math.min(GROUPS_PER_CALL, arrayCall / groupLen);
    for (int g = 0; g < groups; g += perCall) {
      int n = Math.min(perCall, groups - g);
      NativeBlake3.hashSubtrees(isa, in, off + g * groupLen, n * groupLen, key, counter + ((long) g << groupLog),
          flags, groupLog, cvs, 0);
      ChainingValues.putWords(cvs, 8 * n, out, outOff + Spec.OUT_LEN * g);
    }
  }

  @Override
  public void groupCvs(ByteBuffer direct, int off, int groups, int groupLog, int[] key, long counter, int flags,
      byte[] out, int outOff) {
    int groupLen = Spec.CHUNK_LEN << groupLog;
    Objects.checkFromIndexSize(off, groups * groupLen, direct.capacity());
    Objects.checkFromIndexSize(outOff, Spec.OUT_LEN * groups, out.length);
    int[] cvs = new int[8 * GROUPS_PER_CALL];
    int perCall = Math.max(1, Math.min(GROUPS_PER_CALL, MAX_CALL / groupLen));
    for (int g = 0; g < groups; g += perCall) {
      int n = Math.min(perCall, groups - g);
      NativeBlake3.hashSubtreesDirect(isa, direct, off + g * groupLen, n * groupLen, key,
          counter + ((long) g << groupLog), flags, groupLog, cvs, 0);
      ChainingValues.putWords(cvs, 8 * n, out, outOff + Spec.OUT_LEN * g);
    }
  }

  /** Groups per hashSubtrees call: within what one call returns for any group size (Bao's are 2^0..2^16 chunks). */
  private static final int GROUPS_PER_CALL = 64;

  @Override
  public void parentCvs(byte[] in, int off, int count, int[] key, int flags, byte[] out, int outOff) {
    Objects.checkFromIndexSize(off, Spec.BLOCK_LEN * count, in.length);
    Objects.checkFromIndexSize(outOff, Spec.OUT_LEN * count, out.length);
    int[] k = key == Spec.iv() ? null : key;
    for (int i = 0; i < count; i += NativeBlake3.PARENTS_MAX) {
      int n = Math.min(NativeBlake3.PARENTS_MAX, count - i);
      NativeBlake3.hashParents(isa, in, off + Spec.BLOCK_LEN * i, n, k, flags, out, outOff + Spec.OUT_LEN * i);
    }
  }
}
