package io.github.blake3fast.cli;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The command-line words as the process received them, bytes, for the one case where the
 * {@code String}s {@code main} gets are not enough: the JVM decodes argv with the locale's
 * charset and replaces what does not decode (U+FFFD in a UTF-8 locale, {@code ?} in the C locale
 * on JDK 17), so {@code --derive-key $'ctx\xff'} would arrive as a context the user did not type,
 * one that {@code $'ctx\xef\xbf\xbd'} also gives. The official b3sum sees the bytes. Read only
 * when asked, which a context of plain ASCII never does: start-up reads no file for it.
 */
class RawArgs {
  /** Words unknown: {@link B3sum#run} called in process, with nothing but strings. */
  static final RawArgs NONE = new RawArgs();

  RawArgs() {}

  /**
   * The bytes of argument {@code index} (as {@code main}'s array counts), or null when unknown.
   */
  byte[] word(int index) {
    return null;
  }

  /** This process's own arguments, the last {@code count} words of /proc/self/cmdline. */
  static RawArgs ofProcess(int count) {
    return new RawArgs() {
      private byte[][] words;
      private boolean read;

      @Override
      byte[] word(int index) {
        if (!read) {
          read = true;
          words = lastWords(count);
        }
        return words == null || index < 0 || index >= words.length ? null : words[index];
      }
    };
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
