package io.github.blake3fast.internal;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Whether an output would be written over an input. Files are compared by what they are, never
 * by name: a symlink, a hard link, {@code /proc/self/fd/N} or {@code /dev/stdin} reaching the
 * input's file is that file. Only regular files count, as GNU {@code cat} counts them: a
 * terminal or {@code /dev/null} read and written at once loses nothing.
 *
 * <p><b>Internal: not API; may change or go in any release.</b> Public only so that the
 * library's own packages (Bao and its command line) share it; the module descriptor does not
 * export this package.
 */
public final class SameFile {
  private SameFile() {}

  /** The reason a refusal gives, in GNU {@code cat}'s words. */
  public static final String REASON = "input file is output file";

  /**
   * The identity of the regular file a name reaches, links followed: its file key (device and
   * inode on Unix). It is what names an open descriptor, {@code /proc/self/fd/0}, whose file
   * has no other name at hand; {@link Files#isSameFile} compares two names.
   *
   * @param path the name
   * @return the file key, or null when the name reaches no regular file, cannot be read, or
   *     the file system has no keys
   */
  public static Object key(Path path) {
    try {
      BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
      return a.isRegularFile() ? a.fileKey() : null;
    } catch (IOException | InvalidPathException | SecurityException e) {
      return null; // no file there (yet): nothing to write over
    }
  }

  /**
   * Whether {@code output} reaches an existing regular file that {@code input} reaches too.
   *
   * @param input the name read
   * @param output the name to be written
   * @return true if writing {@code output} would write over {@code input}
   * @throws IOException if the two exist but cannot be compared
   */
  public static boolean same(Path input, Path output) throws IOException {
    if (!Files.isRegularFile(output)) {
      return false; // nothing there yet, or nothing a write could destroy
    }
    try {
      return Files.isSameFile(input, output);
    } catch (NoSuchFileException e) {
      return false; // no input: opening it says so
    }
  }

  /**
   * Refuses to write {@code output} over {@code input}, before anything is opened for writing.
   *
   * @param input the name read
   * @param output the name to be written
   * @throws FileSystemException naming both, with {@link #REASON}, if they are one file
   * @throws IOException if the two exist but cannot be compared
   */
  public static void refuse(Path input, Path output) throws IOException {
    if (same(input, output)) {
      throw new FileSystemException(input.toString(), output.toString(), REASON);
    }
  }
}
