package io.github.blake3fast;

import io.github.blake3fast.internal.Parallel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/**
 * BLAKE3: hashing, keyed hashing (a MAC), key derivation and extendable output.
 *
 * <p>All methods are static and thread-safe. A native SIMD engine runs where the jar carries
 * one for this platform and it loads and passes its self-test; the pure-Java engine runs
 * everywhere else. {@link #implementation()} says which. Both give identical results.
 *
 * <pre>{@code
 * byte[] digest = Blake3.hash(data);                       // 32 bytes
 * String hex = Blake3.toHex(Blake3.hash("hello"));
 * byte[] mac = Blake3.keyedHash(key32, message);
 * byte[] k = Blake3.deriveKey("myapp 2026-11-30 session keys", material);
 * Blake3Hasher h = Blake3.newHasher(); h.update(part1); h.update(part2); byte[] d = h.digest();
 * }</pre>
 */
public final class Blake3 {
  private Blake3() {}

  /** The default output length in bytes. */
  public static final int OUT_LEN = Spec.OUT_LEN;
  /** The key length in bytes for keyed hashing. */
  public static final int KEY_LEN = Spec.KEY_LEN;

  /**
   * The 32-byte hash of {@code input}.
   *
   * @param input the bytes to hash
   * @return the hash, a new 32-byte array
   */
  public static byte[] hash(byte[] input) {
    return hash(input, OUT_LEN);
  }

  /**
   * {@code outputLength} bytes of extendable output of {@code input} (any length >= 0).
   *
   * @param input the bytes to hash
   * @param outputLength how many output bytes, 0 or more
   * @return a new array of {@code outputLength} bytes
   * @throws IllegalArgumentException if {@code outputLength} is negative
   */
  public static byte[] hash(byte[] input, int outputLength) {
    Objects.requireNonNull(input, "input");
    checkOutputLength(outputLength);
    return oneShot(input, 0, input.length, Spec.iv(), 0, outputLength);
  }

  /**
   * The 32-byte hash of {@code length} bytes of {@code input} starting at {@code offset}.
   *
   * @param input the array holding the bytes to hash
   * @param offset where they start in {@code input}
   * @param length how many bytes to hash
   * @return the hash, a new 32-byte array
   * @throws IndexOutOfBoundsException if the range is not inside {@code input}
   */
  public static byte[] hash(byte[] input, int offset, int length) {
    Checks.range(input, offset, length);
    return oneShot(input, offset, length, Spec.iv(), 0, OUT_LEN);
  }

  /**
   * Writes the 32-byte hash of {@code length} bytes of {@code input} starting at {@code offset}
   * to {@code out[outOffset .. outOffset + 32)}, allocating nothing: for loops that hash many
   * short inputs, where a new result array per hash is most of the garbage, and where a young
   * generation still growing makes every fresh page of it cost a page fault
   * (docs/performance.md#short-inputs). {@code input} and {@code out} may be the same array, the
   * hash overlapping the bytes hashed: it is theirs as they were before it was written.
   *
   * @param input the array holding the bytes to hash
   * @param offset where they start in {@code input}
   * @param length how many bytes to hash
   * @param out the array the hash goes to
   * @param outOffset where it starts in {@code out}
   * @throws IndexOutOfBoundsException if the range is not inside {@code input} or 32 bytes from
   *     {@code outOffset} are not inside {@code out}; nothing is written then
   */
  public static void hash(byte[] input, int offset, int length, byte[] out, int outOffset) {
    Checks.range(input, offset, length);
    Checks.range(out, outOffset, OUT_LEN);
    OneShot.hash(Engine.kernel(), input, offset, length, Spec.iv(), 0, out, outOffset, OUT_LEN);
  }

  /**
   * The 32-byte hash of the UTF-8 encoding of {@code utf8}. An unpaired surrogate, which has no
   * UTF-8 form, is encoded as U+FFFD (bytes EF BF BD), as the WHATWG encoding standard and
   * JavaScript's {@code TextEncoder} do, so the hash is that of the same text in other BLAKE3
   * libraries; {@code String.getBytes(UTF_8)} would write {@code ?} instead. A well-formed string
   * hashes as {@code hash(utf8.getBytes(UTF_8))}.
   *
   * @param utf8 the text to hash
   * @return the hash, a new 32-byte array
   */
  public static byte[] hash(String utf8) {
    Objects.requireNonNull(utf8, "input");
    byte[] bytes = Utf8.withReplacement(utf8);
    return oneShot(bytes, 0, bytes.length, Spec.iv(), 0, OUT_LEN);
  }

  /**
   * The 32-byte keyed hash (MAC) of {@code input} under a 32-byte key.
   *
   * @param key32 the key, exactly {@value #KEY_LEN} bytes
   * @param input the bytes to authenticate
   * @return the MAC, a new 32-byte array
   * @throws IllegalArgumentException if the key is not {@value #KEY_LEN} bytes
   */
  public static byte[] keyedHash(byte[] key32, byte[] input) {
    int[] key = Checks.key(key32);
    Objects.requireNonNull(input, "input");
    return oneShot(input, 0, input.length, key, Spec.KEYED_HASH, OUT_LEN);
  }

  /**
   * {@code outputLength} bytes of the keyed hash of {@code input}.
   *
   * @param key32 the key, exactly {@value #KEY_LEN} bytes
   * @param input the bytes to authenticate
   * @param outputLength how many output bytes, 0 or more
   * @return a new array of {@code outputLength} bytes
   * @throws IllegalArgumentException if the key is not {@value #KEY_LEN} bytes or {@code outputLength} is negative
   */
  public static byte[] keyedHash(byte[] key32, byte[] input, int outputLength) {
    int[] key = Checks.key(key32);
    Objects.requireNonNull(input, "input");
    checkOutputLength(outputLength);
    return oneShot(input, 0, input.length, key, Spec.KEYED_HASH, outputLength);
  }

  /**
   * A 32-byte key derived from {@code material} for the application-specific {@code context},
   * which should be a hard-coded, globally unique string such as
   * {@code "example.com 2026-11-30 session tokens v1"}.
   *
   * @param context the application-specific context string
   * @param material the secret key material
   * @return the derived key, a new 32-byte array
   * @throws IllegalArgumentException if {@code context} is not well-formed UTF-16 (it holds an
   *     unpaired surrogate, which has no UTF-8 form); the message names the index of the first
   */
  public static byte[] deriveKey(String context, byte[] material) {
    return deriveKey(context, material, OUT_LEN);
  }

  /**
   * {@code outputLength} bytes of key derived from {@code material} for {@code context}.
   *
   * @param context the application-specific context string
   * @param material the secret key material
   * @param outputLength how many bytes of key, 0 or more
   * @return a new array of {@code outputLength} bytes
   * @throws IllegalArgumentException if {@code outputLength} is negative, or if {@code context}
   *     is not well-formed UTF-16 (an unpaired surrogate; the message names the index of the first)
   */
  public static byte[] deriveKey(String context, byte[] material, int outputLength) {
    int[] key = contextKey(context);
    Objects.requireNonNull(material, "material");
    checkOutputLength(outputLength);
    return oneShot(material, 0, material.length, key, Spec.DERIVE_KEY_MATERIAL, outputLength);
  }

  /**
   * The 32-byte hash of each input, in order: the same as {@link #hash(byte[])} of each, computed
   * side by side. The native engine hashes many short messages at once, one per SIMD lane (4 to
   * 16 at a time), which is several times faster than hashing them one by one; any lengths may
   * be mixed, long messages take the ordinary path.
   *
   * @param inputs the messages; none may be null
   * @return a new array of new 32-byte hashes, {@code hashes[i]} being that of {@code inputs[i]}
   * @throws NullPointerException if {@code inputs} or one of its elements is null (nothing is hashed)
   */
  public static byte[][] hashMany(byte[][] inputs) {
    return Batch.hashArrays(Spec.iv(), 0, inputs);
  }

  /**
   * The 32-byte hash of each of several messages packed in one array: message {@code i} is
   * {@code data[offsets[i], offsets[i] + lengths[i])} (ranges may come in any order, overlap or
   * leave gaps) and its hash goes to {@code out[32 i, 32 i + 32)}. The same as
   * {@link #hash(byte[], int, int)} of each, computed side by side (see {@link #hashMany(byte[][])}).
   * {@code out} may be {@code data} itself: the hashes are those of the messages as they were
   * before any hash was written, whatever the layout.
   *
   * @param data the array holding the messages
   * @param offsets where each message starts in {@code data}
   * @param lengths each message's length, as many as {@code offsets}
   * @param out receives the hashes, at least {@code 32 * offsets.length} bytes; may be {@code data}
   * @throws IllegalArgumentException if {@code offsets} and {@code lengths} differ in length or
   *     {@code out} is too short
   * @throws IndexOutOfBoundsException if a range is not inside {@code data}
   * @throws NullPointerException if an array is null; in every case before anything is written
   */
  public static void hashMany(byte[] data, int[] offsets, int[] lengths, byte[] out) {
    Batch.hashPacked(Spec.iv(), 0, data, offsets, lengths, out);
  }

  /**
   * The 32-byte keyed hash (MAC) of each input under one key, in order: the same as
   * {@link #keyedHash(byte[], byte[])} of each, computed side by side.
   *
   * @param key32 the key, exactly {@value #KEY_LEN} bytes
   * @param inputs the messages; none may be null
   * @return a new array of new 32-byte MACs
   * @throws IllegalArgumentException if the key is not {@value #KEY_LEN} bytes
   */
  public static byte[][] keyedHashMany(byte[] key32, byte[][] inputs) {
    return Batch.hashArrays(Checks.key(key32), Spec.KEYED_HASH, inputs);
  }

  /**
   * The keyed hash of each of several messages packed in one array, as
   * {@link #hashMany(byte[], int[], int[], byte[])} lays them out; {@code out} (and the key) may be
   * {@code data}, as there.
   *
   * @param key32 the key, exactly {@value #KEY_LEN} bytes
   * @param data the array holding the messages
   * @param offsets where each message starts in {@code data}
   * @param lengths each message's length, as many as {@code offsets}
   * @param out receives the MACs, at least {@code 32 * offsets.length} bytes
   * @throws IllegalArgumentException if the key is not {@value #KEY_LEN} bytes, the arrays
   *     disagree or {@code out} is too short
   * @throws IndexOutOfBoundsException if a range is not inside {@code data}
   */
  public static void keyedHashMany(byte[] key32, byte[] data, int[] offsets, int[] lengths, byte[] out) {
    int[] key = Checks.key(key32);
    Batch.hashPacked(key, Spec.KEYED_HASH, data, offsets, lengths, out);
  }

  /**
   * A 32-byte key derived for {@code context} from each of several key materials, in order: the
   * same as {@link #deriveKey(String, byte[])} of each, computed side by side.
   *
   * @param context the application-specific context string
   * @param materials the key materials; none may be null
   * @return a new array of new 32-byte keys
   */
  public static byte[][] deriveKeyMany(String context, byte[][] materials) {
    Batch.checkArrays(materials);
    return Batch.hashArrays(contextKey(context), Spec.DERIVE_KEY_MATERIAL, materials);
  }

  /**
   * Keys derived for {@code context} from several key materials packed in one array, as
   * {@link #hashMany(byte[], int[], int[], byte[])} lays them out; {@code out} may be {@code data},
   * as there.
   *
   * @param context the application-specific context string
   * @param data the array holding the key materials
   * @param offsets where each material starts in {@code data}
   * @param lengths each material's length, as many as {@code offsets}
   * @param out receives the keys, at least {@code 32 * offsets.length} bytes
   * @throws IllegalArgumentException if the arrays disagree or {@code out} is too short
   * @throws IndexOutOfBoundsException if a range is not inside {@code data}
   */
  public static void deriveKeyMany(String context, byte[] data, int[] offsets, int[] lengths, byte[] out) {
    Objects.requireNonNull(context, "context");
    Batch.checkPacked(data, offsets, lengths, out); // before the context is hashed
    Batch.hashCheckedPacked(Engine.kernel(), contextKey(context), Spec.DERIVE_KEY_MATERIAL, data, offsets, lengths, out);
  }

  /**
   * A streaming hasher for the plain hash.
   *
   * @return a new hasher with no input
   */
  public static Blake3Hasher newHasher() {
    return new Blake3Hasher(new TreeState(Engine.kernel(), Spec.iv(), 0));
  }

  /**
   * A streaming hasher for the keyed hash under a 32-byte key.
   *
   * @param key32 the key, exactly {@value #KEY_LEN} bytes
   * @return a new hasher with no input
   * @throws IllegalArgumentException if the key is not {@value #KEY_LEN} bytes
   */
  public static Blake3Hasher newKeyedHasher(byte[] key32) {
    return new Blake3Hasher(new TreeState(Engine.kernel(), Checks.key(key32), Spec.KEYED_HASH));
  }

  /**
   * A streaming hasher that derives key material for {@code context} (see {@link #deriveKey}).
   *
   * @param context the application-specific context string
   * @return a new hasher with no input; feed it the key material
   * @throws IllegalArgumentException if {@code context} is not well-formed UTF-16 (an unpaired
   *     surrogate; the message names the index of the first)
   */
  public static Blake3Hasher newDeriveKeyHasher(String context) {
    return new Blake3Hasher(new TreeState(Engine.kernel(), contextKey(context), Spec.DERIVE_KEY_MATERIAL));
  }

  /**
   * The 32-byte hash of a file's contents, the fastest way this library knows: a regular file
   * of 4 MiB or more is read and hashed in parallel by the calling thread and the common
   * {@link ForkJoinPool}, in aligned windows that the native engine reads through memory
   * mappings (a file that shrinks under one is caught in its C code and becomes an
   * IOException) and the Java engine with positional reads; smaller ones are read
   * sequentially. Files that are not regular (pipes, {@code /dev/stdin}, devices) are read as
   * streams. See {@link Blake3Hasher#updateFile(Path, int)} to choose the number of threads.
   *
   * @param file the file (or pipe, device) to read to its end
   * @return the hash, a new 32-byte array
   * @throws IOException if the file cannot be opened or read, or shrinks while it is read
   */
  public static byte[] hashFile(Path file) throws IOException {
    return newHasher().updateFile(file).digest();
  }

  /**
   * The 32-byte hash of {@code input}, computed by the calling thread and the common
   * {@link ForkJoinPool} together when it is large (about 1 MiB or more): the same value as
   * {@link #hash(byte[])}.
   *
   * @param input the bytes to hash
   * @return the hash, a new 32-byte array
   */
  public static byte[] hashParallel(byte[] input) {
    return hashParallel(input, ForkJoinPool.commonPool());
  }

  /**
   * The 32-byte hash of {@code input}, computed by the calling thread and the threads of
   * {@code executor} when it is large: the same value as {@link #hash(byte[])}. See
   * {@link Blake3Hasher#updateParallel(byte[], int, int, Executor)}.
   *
   * @param input the bytes to hash
   * @param executor lends threads to the call; tasks it does not run are done by the caller
   * @return the hash, a new 32-byte array
   */
  public static byte[] hashParallel(byte[] input, Executor executor) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(executor, "executor");
    if (input.length < Parallel.MIN_LEN) {
      return hash(input);
    }
    return newHasher().updateParallel(input, 0, input.length, executor).digest();
  }

  /**
   * The 32-byte hash of the buffer's remaining bytes (heap, direct or mapped), computed in
   * parallel when they are many; the buffer's position moves to its limit.
   *
   * @param input the buffer whose remaining bytes are hashed
   * @param executor lends threads to the call; tasks it does not run are done by the caller
   * @return the hash, a new 32-byte array
   */
  public static byte[] hashParallel(ByteBuffer input, Executor executor) {
    return newHasher().updateParallel(input, executor).digest();
  }

  /**
   * As {@link #hashParallel(ByteBuffer, Executor)} on the common {@link ForkJoinPool}.
   *
   * @param input the buffer whose remaining bytes are hashed
   * @return the hash, a new 32-byte array
   */
  public static byte[] hashParallel(ByteBuffer input) {
    return hashParallel(input, ForkJoinPool.commonPool());
  }

  /**
   * Lowercase hexadecimal of {@code bytes}.
   *
   * @param bytes the bytes to write
   * @return two lowercase hex digits per byte
   */
  public static String toHex(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    return Hex.encode(bytes);
  }

  /**
   * The bytes written in hexadecimal (either case).
   *
   * @param hex an even number of hex digits
   * @return a new array, one byte per two digits
   * @throws IllegalArgumentException on an odd length or a character that is not a hex digit
   */
  public static byte[] fromHex(CharSequence hex) {
    Objects.requireNonNull(hex, "hex");
    return Hex.decode(hex);
  }

  /**
   * What hashes in this JVM: {@code native-<isa>} (e.g. {@code native-avx512},
   * {@code native-neon}) or {@code java (<why native is not used>)}. The ISA is spelled as
   * {@code -Dblake3.isa} takes it, the same on every platform: {@code native-avx2} on Windows
   * x86-64 as on Linux, {@code native-vsx} on little- and big-endian POWER ({@code
   * native-portable} on a big-endian one without VSX).
   *
   * @return the engine in use, and why when it is the Java engine
   */
  public static String implementation() {
    return Engine.description();
  }

  static int[] contextKey(String context) {
    return contextKey(Engine.kernel(), context);
  }

  /**
   * The key words of {@code context} (its hash in DERIVE_KEY_CONTEXT mode), hashed by
   * {@code kernel}. An all-zero result is taken for a fault, never used: as a hash it has
   * probability 2^-256, and it is what JDK 17's C2 once made of code that read the key's words
   * (the readers were changed; bench/notes/decisions.md, "A derive-key key of zeros"). The
   * Java engine then hashes the context again; if it gives zeros too, the call fails rather
   * than derive from them.
   */
  static int[] contextKey(Kernel kernel, String context) {
    byte[] ctx = Utf8.wellFormed(context, "context");
    int[] words = contextWords(kernel, ctx);
    if (Spec.allZero(words) && kernel != JavaKernel.INSTANCE) {
      words = contextWords(JavaKernel.INSTANCE, ctx);
    }
    if (Spec.allZero(words)) {
      throw new IllegalStateException("blake3-fast: the key of a derive-key context came out as zeros, which no hash "
          + "gives: a fault in this JVM (" + implementation() + "), please report it");
    }
    return words;
  }

  private static int[] contextWords(Kernel kernel, byte[] ctx) {
    byte[] key = new byte[Spec.KEY_LEN];
    OneShot.hash(kernel, ctx, 0, ctx.length, Spec.iv(), Spec.DERIVE_KEY_CONTEXT, key, 0, Spec.KEY_LEN);
    return Spec.keyWords(key);
  }

  private static byte[] oneShot(byte[] input, int off, int len, int[] key, int flags, int outLen) {
    byte[] out = new byte[outLen];
    OneShot.hash(Engine.kernel(), input, off, len, key, flags, out, 0, outLen);
    return out;
  }

  static void checkOutputLength(int outputLength) {
    if (outputLength < 0) {
      throw new IllegalArgumentException("output length must not be negative: " + outputLength);
    }
  }
}
