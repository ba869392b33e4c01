package io.github.blake3fast.bao;

import io.github.blake3fast.internal.Parallel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;

/**
 * Decodes a whole encoding held in files (combined, or content plus outboard) into a file
 * written by position: what {@link Blake3BaoDecoder} returns read from start to end, but with
 * the windows (aligned complete subtrees of about 1 MiB, as the decoder reads them) verified on
 * several threads, as the encoder hashes them, and each written to its place once verified.
 * The output is a temporary file until the last byte is verified, so the order in which
 * windows finish shows nowhere.
 *
 * <p>A failure reported is the one a reader from the start would meet first: that of the
 * lowest window that fails (windows are taken in order; after a failure those not taken yet
 * are skipped, those taken, below it too, still finish), else that of the groups after the
 * last whole window, which the calling thread verifies.
 */
final class BaoFileDecode {
  private final byte[] hash;
  private final FileChannel encoding;
  private final FileChannel outboard;
  private final BaoSink out;
  private final BaoTree tree;
  /**
   * Groups per window, as a power of two. 0 for groups of 1 MiB or more: then there are no
   * windows, and the calling thread verifies group by group, as the streaming decoder does.
   */
  private final int log;
  private final int windowLen;
  private final int windows;
  /** Workers not in use: one is made per thread at work, and all go with this object. */
  private final ConcurrentLinkedQueue<Worker> idle = new ConcurrentLinkedQueue<>();
  /** The lowest window that failed so far, and its failure. */
  private int failedAt = Integer.MAX_VALUE;
  private IOException failure;

  /**
   * @param encoding the combined encoding, or the content if {@code outboard} is not null
   * @param outboard the outboard, or null
   * @param out the output, written by position
   */
  BaoFileDecode(byte[] hash, int groupLog, FileChannel encoding, FileChannel outboard, FileChannel out)
      throws IOException {
    this.hash = hash;
    this.encoding = encoding;
    this.outboard = outboard;
    this.out = new BaoSink.Channel(out);
    this.tree = BaoHeader.read(BaoInput.of(outboard != null ? outboard : encoding), groupLog, outboard == null);
    this.log = BaoHeader.windowLog(groupLog);
    this.windowLen = tree.groupLen << log;
    // A header may claim more than the file holds. The first window past the file's end cannot
    // be whole, so it fails as it would for a reader from the start, and none after it is taken.
    long claimed = tree.length / windowLen;
    long held = encoding.size() / windowLen + 1;
    this.windows = log > 0 ? (int) Math.min(Math.min(claimed, held), Integer.MAX_VALUE) : 0;
  }

  /** Verifies and writes every byte, on the common pool and the calling thread. */
  void run() throws IOException {
    Executor pool = Parallel.commonPool();
    int helpers = (long) windows * windowLen >= Parallel.MIN_LEN ? Parallel.helpers(pool) : 0;
    try {
      Parallel.run(windows, pool, helpers, this::window);
    } catch (IOException e) {
      // Parallel.run rethrows the first failure in time, after the windows already started
      // (all below it, as windows are taken in order) have finished: report the lowest.
      synchronized (this) {
        throw failure;
      }
    }
    long g = (long) windows << log;
    if (g < tree.groups) {
      Worker w = worker();
      byte[] group = new byte[tree.groupLen];
      for (; g < tree.groups; g++) {
        int len = w.verifier.group(g, group);
        out.write(g * tree.groupLen, group, 0, len);
      }
    }
  }

  private Worker worker() {
    Worker w = idle.poll();
    return w != null ? w : new Worker();
  }

  private void window(int i) throws IOException {
    Worker w = worker();
    try {
      long first = (long) i << log;
      if (w.window == null) {
        w.window = ByteBuffer.allocateDirect(windowLen);
      }
      w.verifier.subtree(first, log, w.window);
      out.write(first * tree.groupLen, w.window.clear());
    } catch (IOException e) {
      synchronized (this) {
        if (i < failedAt) {
          failedAt = i;
          failure = e;
        }
      }
      throw e; // the windows not taken yet are skipped: a header that lies fails fast
    } finally {
      idle.add(w);
    }
  }

  /** Readers of its own (each caches what it read last), a verifier and a window's buffer. */
  private final class Worker {
    final BaoVerifier verifier;
    /** Made at the first window this worker verifies (the groups after the windows need none). */
    ByteBuffer window;

    Worker() {
      BaoInput e = BaoInput.of(encoding);
      BaoLayout layout = outboard == null ? new BaoLayout.Interleaved(tree, e)
          : new BaoLayout.Outboard(tree, e, BaoInput.of(outboard));
      verifier = new BaoVerifier(tree, layout, hash);
    }
  }
}
