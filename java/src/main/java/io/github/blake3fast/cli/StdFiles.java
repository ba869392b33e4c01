package io.github.blake3fast.cli;

import io.github.blake3fast.internal.SameFile;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * What bao's standard input and output are, so that it never writes over its input: the file
 * keys (device and inode) of the regular files behind descriptors 0 and 1, as the process
 * starts. {@code bao decode HASH - out < out} and {@code bao decode HASH f.bao 1<>f.bao} name
 * the file on one side only; the key is how the two sides meet. A run in process on Java
 * streams has none ({@link #NONE}).
 */
final class StdFiles {
  static final StdFiles NONE = new StdFiles(null, null);

  /** The key of standard input's file, or null (a pipe, a terminal, none). */
  final Object in;
  /** The key of standard output's file, or null. */
  final Object out;

  StdFiles(Object in, Object out) {
    this.in = in;
    this.out = out;
  }

  /** This process's descriptors 0 and 1. */
  static StdFiles ofProcess() {
    return new StdFiles(descriptor(0), descriptor(1));
  }

  private static Object descriptor(int fd) {
    Object key = SameFile.key(Paths.get("/proc/self/fd/" + fd)); // Linux
    return key != null ? key : SameFile.key(Paths.get("/dev/fd/" + fd)); // the BSDs, macOS
  }

  /**
   * Refuses to write {@code output} over any of {@code inputs}, as GNU cat refuses ("input file
   * is output file"), before anything is opened for writing. A null is the standard stream.
   */
  void refuse(Path output, Path... inputs) throws IOException, Fatal {
    for (Path input : inputs) {
      boolean same;
      if (input != null && output != null) {
        same = SameFile.same(input, output);
      } else {
        Object a = input == null ? in : SameFile.key(input);
        Object b = output == null ? out : SameFile.key(output);
        same = a != null && a.equals(b);
      }
      if (same) {
        throw new Fatal((input == null ? "-" : input.toString()) + ": " + SameFile.REASON);
      }
    }
  }
}
