package io.github.blake3fast;

import java.io.FileDescriptor;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The kernel backed by the native library, for one ISA. Every one-shot hash is native: JMH
 * (bench HashBench) measured it faster than the Java engine at 64, 65 and 1000 bytes (figures
 * in bench/notes/decisions.md):
 * <ul>
 *   <li>one block at most (64 bytes, 32-byte result): through {@link ShortHashSlots}, which
 *       pins nothing. When its thread's slot is busy, a call takes the general call below
 *       instead, which for 64 bytes is about as fast as the Java engine;
 *   <li>longer: one JNI call that pins its arrays, in slices of at most {@link Kernel#MAX_CALL}
 *       bytes so that a critical section never pins an array for long.
 * </ul>
 * That is where the collector pins regions. Where the JVM would implement the critical
 * section with the GC locker ({@link CriticalArrays}), arrays are copied instead, a slice at a
 * time, through a {@link CopyBuffers} direct buffer (or, when none is free, through the
 * library's own bounded buffer); the output of a one-shot is copied out, never pinned.
 */
final class NativeKernel implements Kernel {
  // Every method checks the range the C side will touch against the array or buffer it gets,
  // right before the call: the public API checked the caller's arguments already, but a hasher
  // shared by threads against its contract (or a bug in the tree driver) must end in an
  // exception, never in C reading or writing outside a Java object. A few ns per call.

  private final int isa;
  private final String name;
  /** Pin arrays (JNI critical sections) or copy them: {@link CriticalArrays}. */
  private final boolean pin;
  /** Null if the library could not locate direct memory: short hashes then take the general call. */
  final ShortHashSlots slots;

  /** The isa one-chunk inputs ask the native side for: {@link #isa}, maybe with FASTEST_BLOCK. */
  private final int blockIsa;

  /** The kernel the loader picks: the best ISA, inputs of one chunk on the fastest one-block compression. */
  NativeKernel(int isa) {
    this(isa, CriticalArrays.PIN, true);
  }

  /** A kernel held to one ISA in all it does (tests, and -Dblake3.isa). */
  NativeKernel(int isa, boolean pin) {
    this(isa, pin, false);
  }

  NativeKernel(int isa, boolean pin, boolean fastestBlock) {
    this.isa = isa;
    this.pin = pin;
    this.blockIsa = fastestBlock ? isa | NativeBlake3.FASTEST_BLOCK : isa;
    this.name = "native-" + NativeBlake3.ISA_NAMES[isa];
    this.slots = ShortHashSlots.create();
  }

  int isa() {
    return isa;
  }

  /** Whether this kernel pins arrays (else it copies them). */
  boolean pins() {
    return pin;
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
    if (pin) {
      return NativeBlake3.hashSubtrees(isa, in, off, len, key, counter, flags, cvs, cvsOff);
    }
    int slot = CopyBuffers.claim();
    if (slot < 0) {
      return NativeBlake3.hashSubtreesCopy(isa, in, off, len, key, counter, flags, cvs, cvsOff);
    }
    try {
      return copiedSubtrees(CopyBuffers.buffer(slot), CopyBuffers.stack(slot), in, off, len, key, counter, flags, cvs,
          cvsOff);
    } finally {
      CopyBuffers.release(slot);
    }
  }

  /**
   * {@link #hashSubtrees} through a copy buffer, the walk blake3_hash_subtrees_filled
   * (blake3_tree.c) makes for the GetByteArrayRegion copy of blake3_jni.c; here the copy is Java's
   * (ByteBuffer.put, see CopyBuffers), which a C walk could only reach by calling back into the
   * JVM per slice: the maximal aligned subtrees left to right; consecutive ones copied and
   * hashed together while they fit in the buffer; one larger than the buffer hashed a buffer at
   * a time (aligned pieces of a power of two) and its pieces merged on the slot's stack, one
   * merge per trailing zero bit of the number of pieces done.
   */
  private int copiedSubtrees(ByteBuffer buf, int[] stack, byte[] in, int off, int len, int[] key, long c, int flags, int[] cvs,
      int cvsOff) {
    final long capChunks = CopyBuffers.LEN / Spec.CHUNK_LEN;
    long chunks = len / Spec.CHUNK_LEN;
    int count = 0;
    while (chunks > 0) {
      long size = Spec.subtreeChunks(c, chunks);
      if (size <= capChunks) {
        long span = size;
        while (span < chunks) {
          long next = Spec.subtreeChunks(c + span, chunks - span);
          if (span + next > capChunks) {
            break;
          }
          span += next;
        }
        int bytes = (int) span * Spec.CHUNK_LEN;
        buf.put(0, in, off, bytes);
        count += NativeBlake3.hashSubtreesDirect(isa, buf, 0, bytes, key, c, flags, cvs, cvsOff + 8 * count);
        size = span;
      } else {
        int depth = 0;
        for (long done = 0; done < size; done += capChunks) {
          buf.put(0, in, off + (int) (done * Spec.CHUNK_LEN), CopyBuffers.LEN);
          NativeBlake3.hashSubtreesDirect(isa, buf, 0, CopyBuffers.LEN, key, c + done, flags, stack, 8 * depth);
          depth++;
          for (long pieces = done / capChunks + 1; (pieces & 1) == 0; pieces >>= 1) {
            depth--;
            int at = 8 * (depth - 1);
            Compress.parentCv(key, flags, stack, at, stack, at);
          }
        }
        System.arraycopy(stack, 0, cvs, cvsOff + 8 * count, 8);
        count++;
      }
      off += (int) size * Spec.CHUNK_LEN;
      c += size;
      chunks -= size;
    }
    return count;
  }

  /**
   * One native call for the whole input: pinned up to {@link Kernel#MAX_CALL}; copied up to a
   * copy buffer with at most {@link NativeBlake3#COPY_OUT} output bytes.
   */
  @Override
  public boolean hashesWhole(int len, int outLen) {
    return pin ? len <= MAX_CALL : len <= CopyBuffers.LEN && outLen <= NativeBlake3.COPY_OUT;
  }

  @Override
  public boolean supportsDirect() {
    return true;
  }

  @Override
  public int hashSubtrees(ByteBuffer direct, int off, int len, int[] key, long counter, int flags, int[] cvs,
      int cvsOff) {
    Objects.checkFromIndexSize(off, len, direct.capacity());
    return NativeBlake3.hashSubtreesDirect(isa, direct, off, len, key, counter, flags, cvs, cvsOff);
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

  /** Strings of one chunk at most: the native call tests the bytes for '?' as it reads them. */
  @Override
  public boolean hashText(byte[] utf8, byte[] out) {
    Objects.checkFromIndexSize(0, Spec.OUT_LEN, out.length);
    int len = utf8.length;
    if (len <= Spec.BLOCK_LEN) {
      return slots != null && slots.hashText(blockIsa, utf8, out) == ShortHashSlots.HASHED;
    }
    if (len > Spec.CHUNK_LEN) {
      return false;
    }
    // No copy buffer free (-1): the copying call makes no such test, so the caller tests the bytes.
    return oneShot(blockIsa, utf8, 0, len, null, NativeBlake3.UNLESS_QUESTION_MARK, out, 0, Spec.OUT_LEN) == 0;
  }

  @Override
  public void hashWhole(byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff, int outLen) {
    Objects.checkFromIndexSize(off, len, in.length);
    Objects.checkFromIndexSize(outOff, outLen, out.length);
    if (!hashesWhole(len, outLen)) {
      throw new IllegalArgumentException("no whole-input call for " + len + " bytes, " + outLen + " out");
    }
    if (len <= ShortHashSlots.MAX_LEN && outLen == Spec.OUT_LEN && slots != null
        && slots.hash(blockIsa, in, off, len, key, flags, out, outOff)) {
      return;
    }
    // A null key is the IV in C: one array fewer to pin or copy.
    int[] k = key == Spec.iv() ? null : key;
    // One chunk is one chain of compressions: the fastest one-block compression's to run.
    int callIsa = len <= Spec.CHUNK_LEN ? blockIsa : isa;
    if (oneShot(callIsa, in, off, len, k, flags, out, outOff, outLen) < 0) {
      NativeBlake3.hashOneShotCopy(callIsa, in, off, len, k, flags, 0, out, outOff, outLen);
    }
  }

  /**
   * The one-shot call on the pinned array, or on a copy of it in a copy buffer: what the call
   * returns, or -1, nothing done, when this kernel copies and no copy buffer is free.
   */
  private int oneShot(int callIsa, byte[] in, int off, int len, int[] k, int flags, byte[] out, int outOff,
      int outLen) {
    if (pin) {
      return NativeBlake3.hashOneShot(callIsa, in, off, len, k, flags, 0, out, outOff, outLen);
    }
    int slot = CopyBuffers.claim();
    if (slot < 0) {
      return -1;
    }
    try {
      ByteBuffer buf = CopyBuffers.buffer(slot);
      buf.put(0, in, off, len);
      return NativeBlake3.hashOneShotDirect(callIsa, buf, 0, len, k, flags, 0, out, outOff, outLen);
    } finally {
      CopyBuffers.release(slot);
    }
  }

  /**
   * Messages longer than this are hashed one by one (one native one-shot each, whose tree
   * fills the lanes by itself); shorter ones go to the native batch, up to
   * {@link NativeBlake3#MANY_MAX} messages per call. The C batch takes up to 8 chunks a message
   * (B3B_MAX_CHUNKS in blake3_batch.c), so a call never pins more than 2 MiB.
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
      if (lengths[i] > MANY_MAX_LEN) {
        OneShot.hash(this, data, offsets[i], lengths[i], key, flags, out, outOff + Spec.OUT_LEN * (i - from),
            Spec.OUT_LEN);
        i++;
        continue;
      }
      int limit = pin ? NativeBlake3.MANY_MAX : CopyBuffers.LEN;
      int j = i;
      long bytes = 0;
      // Every range is checked here again, right before C reads it: see the class comment.
      while (j < end && j - i < NativeBlake3.MANY_MAX && lengths[j] <= MANY_MAX_LEN
          && (pin || bytes + lengths[j] <= limit)) {
        Objects.checkFromIndexSize(offsets[j], lengths[j], data.length);
        bytes += lengths[j];
        j++;
      }
      int at = outOff + Spec.OUT_LEN * (i - from);
      if (pin) {
        NativeBlake3.hashMany(isa, data, offsets, lengths, i, j - i, k, flags, out, at);
      } else {
        manyCopied(data, offsets, lengths, i, j - i, k, flags, out, at);
      }
      i = j;
    }
  }

  /** {@link #hashMany} where arrays are not pinned: the messages packed into a copy buffer. */
  private void manyCopied(byte[] data, int[] offsets, int[] lengths, int from, int count, int[] key, int flags,
      byte[] out, int outOff) {
    int slot = CopyBuffers.claim();
    if (slot < 0) { // no copy buffer free: one message at a time, each a one-shot
      Kernel.super.hashMany(data, offsets, lengths, from, count, key == null ? Spec.iv() : key, flags, out, outOff);
      return;
    }
    try {
      ByteBuffer buf = CopyBuffers.buffer(slot);
      int[] packedOffsets = CopyBuffers.offsets(slot); // count <= NativeBlake3.MANY_MAX: hashMany slices
      int[] packedLengths = CopyBuffers.lengths(slot);
      long lo = Long.MAX_VALUE;
      long hi = 0;
      long bytes = 0;
      for (int i = from; i < from + count; i++) {
        lo = Math.min(lo, offsets[i]);
        hi = Math.max(hi, (long) offsets[i] + lengths[i]);
        bytes += lengths[i];
      }
      System.arraycopy(lengths, from, packedLengths, 0, count);
      if (hi - lo <= CopyBuffers.LEN && hi - lo <= 2 * bytes + Spec.CHUNK_LEN) {
        // Messages packed close together (the usual layout): their whole span in one copy
        // rather than one copy each, which costs more than hashing a 64-byte message.
        buf.put(0, data, (int) lo, (int) (hi - lo));
        for (int i = 0; i < count; i++) {
          packedOffsets[i] = offsets[from + i] - (int) lo;
        }
      } else {
        int at = 0;
        for (int i = 0; i < count; i++) {
          int len = lengths[from + i];
          buf.put(at, data, offsets[from + i], len);
          packedOffsets[i] = at;
          at += len;
        }
      }
      NativeBlake3.hashManyDirect(isa, buf, packedOffsets, packedLengths, 0, count, key, flags, out, outOff);
    } finally {
      CopyBuffers.release(slot);
    }
  }

  @Override
  public void rootOutput(int[] cv, int[] block, int blockLen, int flags, long position, byte[] out, int outOff,
      int outLen) {
    Objects.checkFromIndexSize(outOff, outLen, out.length);
    while (outLen > 0) {
      int n = Math.min(outLen, MAX_CALL);
      if (pin) {
        NativeBlake3.rootOutput(isa, cv, block, blockLen, flags, position, out, outOff, n);
      } else {
        NativeBlake3.rootOutputCopy(isa, cv, block, blockLen, flags, position, out, outOff, n);
      }
      position += n;
      outOff += n;
      outLen -= n;
    }
  }

  // Bao trees: one call for many groups or parents. Arrays are pinned where this kernel pins;
  // elsewhere they go through direct buffers of the calling thread ({@link BaoScratch}), and
  // when direct memory cannot be had, through the defaults, one subtree call per group.

  @Override
  public void groupCvs(byte[] in, int off, int groups, int groupLog, int[] key, long counter, int flags,
      byte[] out, int outOff) {
    int len = groups * (Spec.CHUNK_LEN << groupLog);
    Objects.checkFromIndexSize(off, len, in.length);
    Objects.checkFromIndexSize(outOff, 32 * groups, out.length);
    if (pin) {
      NativeBlake3.hashGroupCvs(isa, in, off, groups, groupLog, key, counter, flags, out, outOff);
      return;
    }
    BaoScratch s = BaoScratch.get(len, 32 * groups);
    if (s == null) {
      Kernel.super.groupCvs(in, off, groups, groupLog, key, counter, flags, out, outOff);
      return;
    }
    s.in.put(0, in, off, len);
    NativeBlake3.hashGroupCvsDirect(isa, s.in, 0, groups, groupLog, key, counter, flags, s.out, 0);
    s.out.get(0, out, outOff, 32 * groups);
  }

  @Override
  public void groupCvs(ByteBuffer direct, int off, int groups, int groupLog, int[] key, long counter, int flags,
      byte[] out, int outOff) {
    Objects.checkFromIndexSize(off, groups * (Spec.CHUNK_LEN << groupLog), direct.capacity());
    Objects.checkFromIndexSize(outOff, 32 * groups, out.length);
    BaoScratch s = BaoScratch.get(0, 32 * groups);
    if (s == null) {
      Kernel.super.groupCvs(direct, off, groups, groupLog, key, counter, flags, out, outOff);
      return;
    }
    NativeBlake3.hashGroupCvsDirect(isa, direct, off, groups, groupLog, key, counter, flags, s.out, 0);
    s.out.get(0, out, outOff, 32 * groups);
  }

  @Override
  public void parentCvs(byte[] in, int off, int count, int[] key, int flags, byte[] out, int outOff) {
    Objects.checkFromIndexSize(off, 64 * count, in.length);
    Objects.checkFromIndexSize(outOff, 32 * count, out.length);
    if (pin) {
      NativeBlake3.hashParentCvs(isa, in, off, count, key, flags, out, outOff);
      return;
    }
    BaoScratch s = BaoScratch.get(64 * count, 32 * count);
    if (s == null) {
      Kernel.super.parentCvs(in, off, count, key, flags, out, outOff);
      return;
    }
    s.in.put(0, in, off, 64 * count);
    NativeBlake3.hashParentCvsDirect(isa, s.in, 0, count, key, flags, s.out, 0);
    s.out.get(0, out, outOff, 32 * count);
  }
}
