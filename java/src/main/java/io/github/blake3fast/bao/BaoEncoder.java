package io.github.blake3fast.bao;

import io.github.blake3fast.Blake3Hazmat;
import io.github.blake3fast.internal.Parallel;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;

/**
 * Builds a Bao outboard (the header and every parent, in pre-order) or the combined encoding
 * (the same with each group's content after the parents before it) for an input of known
 * length, writing every node at its place: in one pass, whatever the order of the work.
 *
 * <p>The input is cut into windows: aligned complete subtrees of about 1 MiB. Each window is
 * hashed on its own, on any thread (its group values in one batched call to
 * {@link Blake3Hazmat#hashSubtrees(byte[], int, int, long, int, Blake3Hazmat.Mode, byte[], int)},
 * each level above in one more, to {@link Blake3Hazmat#mergeSubtrees(byte[], int, int,
 * Blake3Hazmat.Mode, byte[], int)}), and its parents are written where pre-order puts them; the
 * nodes above the windows, and those of the short tail, follow on the calling thread. So the
 * work is the hashing itself, spread over cores as {@link io.github.blake3fast.Blake3#hashFile}
 * spreads it.
 */
final class BaoEncoder {
  /** Window bytes: large enough for wide kernel calls, small enough for many tasks. */
  private static final int WINDOW_LEN = 1 << 20;

  private final BaoTree tree;
  private final BaoContent content;
  private final BaoSink sink;
  private final boolean combined;
  /**
   * Scratch not in use: one is made per thread at work and reused from window to window (new
   * arrays for each would be most of what encoding a file allocates, 1/8 of its size, fresh
   * heap that a short-lived JVM first has to fault in); all go with this object.
   */
  private final ConcurrentLinkedQueue<Scratch> idle = new ConcurrentLinkedQueue<>();
  private final int windowLog;
  /** The largest complete subtree this input has, up to a window: what scratch is made for. */
  private final int scratchLog;
  private final long windows;
  /** Per window: its value (32 bytes) then its top parent block (64 bytes), if computed. */
  private final byte[] windowNodes;

  BaoEncoder(BaoTree tree, BaoContent content, BaoSink sink, boolean combined) {
    this.combined = combined;
    this.tree = tree;
    this.content = content;
    this.sink = sink;
    this.windowLog = Math.max(0, Integer.numberOfTrailingZeros(WINDOW_LEN / Blake3Hazmat.CHUNK_LEN) - tree.groupLog);
    this.scratchLog = Math.min(windowLog, 63 - Long.numberOfLeadingZeros(tree.groups));
    long fullGroups = tree.length / tree.groupLen;
    this.windows = windowLog == 0 ? 0 : fullGroups >>> windowLog;
    if (windows > Integer.MAX_VALUE / 96) {
      throw new IllegalArgumentException("input too long for this encoder: " + tree.length + " bytes");
    }
    this.windowNodes = new byte[(int) (96 * windows)];
  }

  /** As {@link #encode(Executor, int)} on the common pool and the calling thread. */
  byte[] encode() throws IOException {
    Executor pool = Parallel.commonPool();
    return encode(pool, Parallel.helpers(pool));
  }

  /**
   * Room for a complete subtree of up to 2^log groups: its levels, its parent blocks, its
   * content read from a file, and its combined-encoding bytes gathered for one write.
   */
  private static final class Scratch {
    final byte[] levels;
    final byte[] parents;
    final ByteBuffer read;
    ByteBuffer region;

    Scratch(int log, int groupLen, boolean read) {
      levels = new byte[BaoHashing.CV_LEN * ((2 << log) - 1)];
      parents = new byte[BaoTree.PARENT_LEN * ((1 << log) - 1)];
      this.read = read ? ByteBuffer.allocateDirect(groupLen << log) : null;
    }
  }

  /** Writes the header and every parent to the sink; returns the root hash. */
  byte[] encode(Executor executor, int helpers) throws IOException {
    sink.write(0, BaoTree.header(tree.length), 0, BaoTree.HEADER_LEN);
    if (windows > 0) {
      int w = (int) windows;
      if (helpers > 0 && ((long) w << windowLog) * tree.groupLen >= Parallel.MIN_LEN) {
        Parallel.run(w, executor, helpers, this::window);
      } else {
        for (int i = 0; i < w; i++) {
          window(i);
        }
      }
    }
    return node(0, tree.groups, 0, true);
  }

  private void window(int i) throws IOException {
    long first = (long) i << windowLog;
    byte[] v = subtree(first, windowLog, tree.depth(first) - windowLog);
    System.arraycopy(v, 0, windowNodes, 96 * i, 96);
  }

  /**
   * Hashes the complete subtree of 2^log whole groups from group {@code first}, at depth
   * {@code depth}, and writes its parents. Returns its value and its top block (if log > 0).
   */
  private byte[] subtree(long first, int log, int depth) throws IOException {
    Scratch s = idle.poll();
    if (s == null) {
      s = new Scratch(scratchLog, tree.groupLen, content.readsInto());
    }
    try {
      int count = 1 << log;
      byte[] levels = s.levels;
      byte[] parents = s.parents;
      int parentsLen = BaoTree.PARENT_LEN * (count - 1);
      ByteBuffer bytes = content.groupCvs(first, count, tree.groupLog, levels, 0, s.read);
      byte[] result = new byte[96];
      if (log > 0) {
        BaoHashing.buildLevels(levels, log, parents, 0);
        System.arraycopy(parents, 0, result, 32, 64);
      }
      if (combined) {
        sink.write(tree.combinedParentPos(first, depth), interleave(s, log, bytes, parentsLen));
      } else if (log > 0) {
        sink.write(tree.outboardParentPos(first, depth), parents, 0, parentsLen);
      }
      System.arraycopy(levels, BaoHashing.CV_LEN * (2 * count - 2), result, 0, 32);
      return result;
    } finally {
      idle.add(s);
    }
  }

  /** The value of the node of {@code count} groups from {@code first} (the root hash if root). */
  private byte[] node(long first, long count, int depth, boolean root) throws IOException {
    if (count == 1) {
      int size = tree.groupSize(first);
      byte[] bytes = new byte[size];
      content.read(first * tree.groupLen, bytes, 0, size);
      if (combined) {
        sink.write(tree.combinedParentPos(first, depth), bytes, 0, size);
      }
      return root ? BaoHashing.soleGroupHash(bytes, 0, size)
          : BaoHashing.groupCv(bytes, 0, size, first * tree.groupLen);
    }
    boolean whole = Long.bitCount(count) == 1 && (first + count) * tree.groupLen <= tree.length;
    if (whole && count <= (1L << windowLog)) {
      byte[] v;
      if (count == 1L << windowLog && first >>> windowLog < windows) {
        int i = (int) (first >>> windowLog);
        v = java.util.Arrays.copyOfRange(windowNodes, 96 * i, 96 * i + 96);
      } else {
        v = subtree(first, Long.numberOfTrailingZeros(count), depth);
      }
      return root ? BaoHashing.rootParent(v, 32) : java.util.Arrays.copyOf(v, 32);
    }
    long left = BaoTree.leftGroups(count);
    byte[] block = new byte[BaoTree.PARENT_LEN];
    System.arraycopy(node(first, left, depth + 1, false), 0, block, 0, 32);
    System.arraycopy(node(first + left, count - left, depth + 1, false), 0, block, 32, 32);
    sink.write(combined ? tree.combinedParentPos(first, depth) : tree.outboardParentPos(first, depth), block, 0,
        block.length);
    return root ? BaoHashing.rootParent(block, 0) : BaoHashing.parentCv(block, 0);
  }

  /** A complete subtree's combined bytes: its parents and groups in pre-order, in one buffer. */
  private ByteBuffer interleave(Scratch s, int log, ByteBuffer bytes, int parentsLen) {
    int count = 1 << log;
    int len = count * tree.groupLen + parentsLen;
    if (s.region == null || s.region.capacity() < len) {
      s.region = ByteBuffer.allocateDirect(len);
    }
    ByteBuffer r = s.region.clear();
    int[] at = new int[2];
    gather(log, bytes, s.parents, r, at);
    return r.flip();
  }

  private void gather(int log, ByteBuffer bytes, byte[] parents, ByteBuffer r, int[] at) {
    if (log == 0) {
      r.put(bytes.duplicate().position(at[0]).limit(at[0] + tree.groupLen));
      at[0] += tree.groupLen;
      return;
    }
    r.put(parents, at[1], BaoTree.PARENT_LEN);
    at[1] += BaoTree.PARENT_LEN;
    gather(log - 1, bytes, parents, r, at);
    gather(log - 1, bytes, parents, r, at);
  }

  /**
   * Writes the combined encoding to a stream, which cannot seek: the outboard's header and parents, each group's content
   * after the parents that precede it in pre-order.
   */
  static void interleave(BaoTree tree, BaoInput outboard, BaoInput content, OutputStream out) throws IOException {
    byte[] buf = new byte[Math.max(tree.groupLen, 64 << 10)];
    if (!outboard.readFully(0, buf, 0, BaoTree.HEADER_LEN)) {
      throw new IOException("outboard too short");
    }
    out.write(buf, 0, BaoTree.HEADER_LEN);
    long written = 0;
    for (long g = 0; g < tree.groups; g++) {
      long before = BaoTree.parentsBefore(g, tree.depth(g));
      while (written < before) {
        int n = (int) Math.min(before - written, buf.length / BaoTree.PARENT_LEN);
        int len = n * BaoTree.PARENT_LEN;
        if (!outboard.readFully(BaoTree.HEADER_LEN + BaoTree.PARENT_LEN * written, buf, 0, len)) {
          throw new IOException("outboard too short");
        }
        out.write(buf, 0, len);
        written += n;
      }
      int size = tree.groupSize(g);
      if (!content.readFully(g * tree.groupLen, buf, 0, size)) {
        throw new IOException("the input ended before byte " + (g * tree.groupLen + size));
      }
      out.write(buf, 0, size);
    }
  }
}
