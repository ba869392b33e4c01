package io.github.blake3fast.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The texts of {@code --help} and {@code --version}: our own words, in the official layout. */
final class Help {
  private Help() {}

  /** The version, and which engine hashes in this JVM (native kernel or Java, and why). */
  static String version() {
    return "b3sum " + projectVersion() + " (blake3-fast, " + io.github.blake3fast.Blake3.implementation() + ")\n";
  }

  static String help() {
    return "b3sum " + projectVersion() + " (blake3-fast)\n"
        + "\n"
        + "USAGE:\n"
        + "    b3sum [FLAGS] [OPTIONS] [FILE]...\n"
        + "\n"
        + "FLAGS:\n"
        + "    -c, --check       Reads BLAKE3 sums from the [FILE]s and verifies each\n"
        + "                      listed file\n"
        + "    -h, --help        Prints this help\n"
        + "        --keyed       Keyed mode: the 32-byte secret key is read, raw, from\n"
        + "                      standard input\n"
        + "        --no-mmap     Reads each file sequentially on one thread. (Files are\n"
        + "                      never memory-mapped here; this turns off parallel reads.)\n"
        + "        --no-names    Prints the hashes without file names\n"
        + "        --quiet       With --check: prints nothing for files that verify,\n"
        + "                      only for those that fail\n"
        + "        --raw         Writes the output bytes as they are, not in hex. Implies\n"
        + "                      --no-names, and takes a single input only.\n"
        + "        --tag         Prints BSD-style lines: BLAKE3 (FILE) = HASH\n"
        + "    -V, --version     Prints the version\n"
        + "\n"
        + "OPTIONS:\n"
        + "        --derive-key <CONTEXT>    Key derivation mode with this context string.\n"
        + "                                  Not together with --keyed.\n"
        + "    -l, --length <LEN>            Output length in bytes, before hex encoding\n"
        + "                                  (default 32)\n"
        + "        --num-threads <NUM>       Threads that hash one large file at most. By\n"
        + "                                  default the number of cores; when this is\n"
        + "                                  absent or 0, RAYON_NUM_THREADS is honoured.\n"
        + "        --seek <SEEK>             Output offset in bytes, before hex encoding\n"
        + "                                  (default 0)\n"
        + "\n"
        + "ARGS:\n"
        + "    <FILE>...    Files to hash, or with --check files of sums to verify.\n"
        + "                 No FILE, or -, reads standard input.\n";
  }

  private static String projectVersion() {
    String path = "/META-INF/maven/io.github.blake3fast/blake3-fast/pom.properties";
    try (InputStream in = Help.class.getResourceAsStream(path)) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version");
        if (v != null && !v.isEmpty()) {
          return v;
        }
      }
    } catch (IOException e) {
      // fall through
    }
    Package pkg = Help.class.getPackage();
    String v = pkg == null ? null : pkg.getImplementationVersion();
    return v == null ? "dev" : v;
  }
}
