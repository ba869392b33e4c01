package io.github.blake3fast;

import io.github.blake3fast.internal.Parallel;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/**
 * A streaming BLAKE3 hasher: feed it input in any pieces, read the hash at any time.
 *
 * <p>One thread at a time, like {@link java.security.MessageDigest}. Its state lives in Java
 * arrays: nothing to close, {@link #copy()} is an array copy. Tiny updates are gathered
 * internally, so feeding input 64 bytes at a time costs about the same as one big update.
 *
 * <p>Large inputs can be hashed on several threads ({@link #updateParallel(byte[], int, int,
 * Executor)}, {@link #updateFile(Path)}); the result is always the one a single thread computes,
 * because the input is cut only where the BLAKE3 tree itself splits. The hasher is still used
 * by one thread at a time: the call returns when all threads are done.
 */
public final class Blake3Hasher {
  private final TreeState state;

  Blake3Hasher(TreeState state) {
    this.state = state;
  }

  /**
   * Adds all of {@code input}.
   *
   * @param input the bytes to add
   * @return this hasher
   */
  public Blake3Hasher update(byte[] input) {
    Objects.requireNonNull(input, "input");
    state.update(input, 0, input.length);
    return this;
  }

  /**
   * Adds {@code length} bytes of {@code input} from {@code offset}.
   *
   * @param input the array holding the bytes to add
   * @param offset where they start in {@code input}
   * @param length how many bytes to add
   * @return this hasher
   * @throws IndexOutOfBoundsException if the range is not inside {@code input}
   */
  public Blake3Hasher update(byte[] input, int offset, int length) {
    Checks.range(input, offset, length);
    state.update(input, offset, length);
    return this;
  }

  /**
   * Adds the buffer's remaining bytes (heap, direct or mapped) and advances its position to
   * its limit.
   *
   * @param input the buffer whose remaining bytes are added
   * @return this hasher
   */
  public Blake3Hasher update(ByteBuffer input) {
    Objects.requireNonNull(input, "input");
    state.update(input);
    return this;
  }

  /**
   * Adds {@code length} bytes of {@code input} from {@code offset}, hashing large inputs on the
   * threads of {@code executor} and the calling thread. Inputs below about 1 MiB, and any input
   * on a single-processor machine, are hashed on the calling thread alone. The executor is lent
   * as many tasks as it has threads (at most the other processors); tasks it never runs, or
   * rejects, are done by the calling thread, so a busy executor slows the call down but never
   * deadlocks it, even when the caller is one of its threads.
   *
   * <p>If the call fails, it throws only after every task already started has finished (none
   * reads {@code input} any more), and the hasher is as it was before the call: catching the
   * exception and adding the same input with {@link #update(byte[], int, int)} gives the right
   * hash.
   *
   * @param input the array holding the bytes to add
   * @param offset where they start in {@code input}
   * @param length how many bytes to add
   * @param executor lends threads to the call
   * @return this hasher
   * @throws RuntimeException or {@link Error}: whatever the executor threw other than
   *     {@link java.util.concurrent.RejectedExecutionException} (a shut-down pool's
   *     IllegalStateException, an OutOfMemoryError for a thread it could not start), or a task
   *     threw (rare: the kernels do not throw)
   * @throws IndexOutOfBoundsException if the range is not inside {@code input}
   */
  public Blake3Hasher updateParallel(byte[] input, int offset, int length, Executor executor) {
    Checks.range(input, offset, length);
    Objects.requireNonNull(executor, "executor");
    ParallelUpdate.update(state, input, null, offset, length, executor, Parallel.helpers(executor));
    return this;
  }

  /**
   * As {@link #updateParallel(byte[], int, int, Executor)} on the common {@link ForkJoinPool}.
   *
   * @param input the array holding the bytes to add
   * @param offset where they start in {@code input}
   * @param length how many bytes to add
   * @return this hasher
   * @throws IndexOutOfBoundsException if the range is not inside {@code input}
   */
  public Blake3Hasher updateParallel(byte[] input, int offset, int length) {
    return updateParallel(input, offset, length, ForkJoinPool.commonPool());
  }

  /**
   * As {@link #updateParallel(byte[], int, int, Executor)} for all of {@code input}, on the common pool.
   *
   * @param input the bytes to add
   * @return this hasher
   */
  public Blake3Hasher updateParallel(byte[] input) {
    Objects.requireNonNull(input, "input");
    return updateParallel(input, 0, input.length, ForkJoinPool.commonPool());
  }

  /**
   * Adds the buffer's remaining bytes (heap, direct or mapped) in parallel, as
   * {@link #updateParallel(byte[], int, int, Executor)} does, and advances its position to its
   * limit. The buffer must not be changed until the call returns; it is not read after the call
   * returns or throws. On a failure the hasher and the buffer's position are as before the call.
   *
   * @param input the buffer whose remaining bytes are added
   * @param executor lends threads to the call
   * @return this hasher
   */
  public Blake3Hasher updateParallel(ByteBuffer input, Executor executor) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(executor, "executor");
    int pos = input.position();
    int len = input.remaining();
    if (input.hasArray()) {
      ParallelUpdate.update(state, input.array(), null, input.arrayOffset() + pos, len, executor,
          Parallel.helpers(executor));
    } else {
      ParallelUpdate.update(state, null, input, pos, len, executor, Parallel.helpers(executor));
    }
    input.position(pos + len);
    return this;
  }

  /**
   * As {@link #updateParallel(ByteBuffer, Executor)} on the common {@link ForkJoinPool}.
   *
   * @param input the buffer whose remaining bytes are added
   * @return this hasher
   */
  public Blake3Hasher updateParallel(ByteBuffer input) {
    return updateParallel(input, ForkJoinPool.commonPool());
  }

  /**
   * Adds everything {@code input} delivers until its end; the stream is not closed. A
   * {@link java.io.FileInputStream} is read through its channel.
   *
   * @param input the stream to read to its end
   * @return this hasher
   * @throws IOException if reading fails; what was read before stays added
   */
  public Blake3Hasher update(InputStream input) throws IOException {
    Objects.requireNonNull(input, "input");
    FileHashing.update(state, input);
    return this;
  }

  /**
   * Adds everything {@code input} delivers until its end of stream; the channel is not closed.
   * It reads into a pooled direct buffer, or a heap buffer when direct memory is short; a
   * channel may need direct memory of its own to fill a heap buffer (a FileChannel on JDK 17,
   * for one: up to 64 KiB per thread). {@link #updateFile(Path)} needs none.
   *
   * @param input the channel to read to its end of stream
   * @return this hasher
   * @throws IOException if reading fails; what was read before stays added
   * @throws java.nio.channels.IllegalBlockingModeException for a channel in non-blocking mode
   */
  public Blake3Hasher update(ReadableByteChannel input) throws IOException {
    Objects.requireNonNull(input, "input");
    FileHashing.update(state, input);
    return this;
  }

  /**
   * Adds the contents of a file, the fastest way this library knows: a regular file from 4 MiB
   * on is hashed by the calling thread and the common {@link ForkJoinPool} together, each
   * thread hashing its own aligned window, which the native engine reads in place through a
   * memory mapping (a SIGBUS from a file that shrinks under it is caught in its C code) and
   * the Java engine with a positional read; smaller files are read sequentially. Anything
   * that is not a regular file (a pipe, {@code /dev/stdin}, a device) is read as a stream to
   * its end. Files of any size (beyond 2 GiB too). The file is read to its end: bytes appended while it is read are included.
   *
   * <p>If the call fails, no thread reads the file any more and the hasher is as it was before
   * the call.
   *
   * @param file the file (or pipe, device) to read to its end
   * @return this hasher
   * @throws IOException if the file cannot be opened or read, or if it shrinks while it is read
   *     (the message says so)
   */
  public Blake3Hasher updateFile(Path file) throws IOException {
    Objects.requireNonNull(file, "file");
    Executor pool = ForkJoinPool.commonPool();
    FileHashing.updateFile(state, file, pool, Parallel.helpers(pool));
    return this;
  }

  /**
   * As {@link #updateFile(Path)} with exactly {@code threads} threads for a large regular file:
   * the calling thread and {@code threads - 1} threads started for the call. 1 reads the file
   * sequentially on the calling thread, never through a mapping.
   *
   * @param file the file (or pipe, device) to read to its end
   * @param threads how many threads read a large regular file, the caller included
   * @return this hasher
   * @throws IllegalArgumentException if threads is less than 1
   * @throws IOException as {@link #updateFile(Path)}
   */
  public Blake3Hasher updateFile(Path file, int threads) throws IOException {
    Objects.requireNonNull(file, "file");
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1: " + threads);
    }
    FileHashing.updateFile(state, file, Parallel.NEW_THREAD, threads - 1);
    return this;
  }

  /**
   * The 32-byte hash of everything added so far; the hasher stays usable.
   *
   * @return the hash, a new 32-byte array
   */
  public byte[] digest() {
    byte[] out = new byte[Spec.OUT_LEN];
    state.finish(out, 0, out.length);
    return out;
  }

  /**
   * {@code outputLength} bytes of extendable output; the hasher stays usable.
   *
   * @param outputLength how many output bytes, 0 or more
   * @return a new array of {@code outputLength} bytes
   * @throws IllegalArgumentException if {@code outputLength} is negative
   */
  public byte[] digest(int outputLength) {
    Blake3.checkOutputLength(outputLength);
    byte[] out = new byte[outputLength];
    state.finish(out, 0, outputLength);
    return out;
  }

  /**
   * Writes {@code length} bytes of output into {@code out} at {@code offset}; the hasher stays usable.
   *
   * @param out the array to write into
   * @param offset where the output starts in {@code out}
   * @param length how many output bytes
   * @throws IndexOutOfBoundsException if the range is not inside {@code out}
   */
  public void digest(byte[] out, int offset, int length) {
    Checks.range(out, offset, length);
    state.finish(out, offset, length);
  }

  /**
   * A reader of the extendable output of everything added so far, at position 0. Later updates
   * do not change it.
   *
   * @return a new reader at output position 0
   */
  public Blake3OutputReader xof() {
    return new Blake3OutputReader(state.kernel(), state.output());
  }

  /**
   * Forgets all input; the key and mode stay.
   *
   * @return this hasher
   */
  public Blake3Hasher reset() {
    state.reset();
    return this;
  }

  /**
   * An independent hasher with the same input so far.
   *
   * @return a new hasher; updating one does not change the other
   */
  public Blake3Hasher copy() {
    return new Blake3Hasher(state.copy());
  }
}
