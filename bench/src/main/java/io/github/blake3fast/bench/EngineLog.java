package io.github.blake3fast.bench;

import io.github.blake3fast.Blake3;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Records which engine a forked benchmark JVM really ran ({@link Blake3#implementation()}), so
 * the results can never silently label the Java engine "AVX-512" when the native library was
 * missing or the cap was refused.
 *
 * <p>Each fork appends one line {@code <benchmark> TAB <implementation>} to the file named by
 * the environment variable {@code BLAKE3_BENCH_ENGINES} (forks inherit the environment; a
 * command-line {@code -jvmArgsAppend} would replace the per-method engine switches), and always
 * prints it on standard output as well.
 */
final class EngineLog {
  static final String ENV = "BLAKE3_BENCH_ENGINES";

  private EngineLog() {}

  static void record(BenchmarkParams params) {
    record(params, Blake3.implementation());
  }

  /** Records {@code engine}: the implementation, with whatever else the benchmark says of it. */
  static void record(BenchmarkParams params, String engine) {
    String line = params.getBenchmark() + "\t" + engine;
    System.out.println("blake3-engine: " + line);
    String file = System.getenv(ENV);
    if (file == null || file.isEmpty()) {
      return;
    }
    Path path = Paths.get(file);
    try {
      Files.write(path, (line + "\n").getBytes(StandardCharsets.UTF_8),
          StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    } catch (IOException e) {
      System.out.println("blake3-engine: cannot write " + path + ": " + e);
    }
  }
}
