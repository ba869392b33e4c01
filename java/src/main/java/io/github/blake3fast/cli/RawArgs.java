package io.github.blake3fast.cli;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The command-line words as the process received them, bytes, for the one case where the
 * {@code String}s {@code main} gets are not enough: the JVM decodes argv with the locale's
 * charset and writes U+FFFD for what does not decode (in the C locale, for every non-ASCII
 * byte), so {@code --derive-key $'ctx\xff'} would arrive as a context the user did not type, one
 * that {@code $'ctx\xef\xbf\xbd'} also gives. The official b3sum sees the bytes. Read only
 * when asked, which a context of plain ASCII never does: start-up reads no file for it.
 */
final class RawArgs {
  /** Words unknown: {@link B3sum#run} called in process, with nothing but strings. */
  static final RawArgs NONE = new RawArgs(null);

  /** How many words to take from the end of /proc/self/cmdline; -1 when not this process's. */
  private final int count;
  private byte[][] words;

  /** Words given: a test's, as a process would have received them. */
  RawArgs(byte[][] words) {
    this.count = -1;
    this.words = words;
  }

  private RawArgs(int count) {
    this.count = count;
  }

  /** This process's own arguments, the last {@code count} words of /proc/self/cmdline. */
  static RawArgs ofProcess(int count) {
    return new RawArgs(count);
  }

  /** The bytes of argument {@code index} (as {@code main}'s array counts), or null when unknown. */
  byte[] word(int index) {
    if (words == null && count >= 0) {
      words = lastWords(count);
    }
    return words == null || index < 0 || index >= words.length ? null : words[index];
  }

  /**
   * The launcher passes the words after the main class or jar to {@code main} as they are (it
   * expands no @file there), so they are the command line's last ones. Null where there is no
   * /proc or fewer words than that: whoever started the JVM did it some other way.
   */
  private static byte[][] lastWords(int count) {
    byte[] all;
    try (InputStream in = new FileInputStream("/proc/self/cmdline")) {
      all = in.readAllBytes();
    } catch (IOException | SecurityException e) {
      return null;
    }
    List<byte[]> words = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < all.length; i++) {
      if (all[i] == 0) {
        words.add(java.util.Arrays.copyOfRange(all, start, i));
        start = i + 1;
      }
    }
    if (words.size() < count) {
      return null;
    }
    return words.subList(words.size() - count, words.size()).toArray(new byte[0][]);
  }
}
