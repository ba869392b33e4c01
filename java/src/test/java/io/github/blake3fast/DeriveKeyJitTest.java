package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Derive-key answers stay right once C2 has compiled the code that reads a context key's words
 * ({@link DeriveKeyJitMain}, a fresh JVM so that the compilations are its own): the shape
 * that gave keys of zeros under JDK 17 (bench/notes/decisions.md, "A derive-key key of zeros").
 */
@Tag("stress")
class DeriveKeyJitTest {
  @Test
  void derivedKeysStayRightUnderC2(@TempDir Path dir) throws Exception {
    ReliabilityKit.Child c = ReliabilityKit.runJava(List.of("-XX:ErrorFile=" + dir.resolve("hs_err_%p.log")),
        DeriveKeyJitMain.class, List.of(Long.toString(Long.getLong("blake3.jit.seconds", 12))), 300);
    System.out.println(c.output.trim());
    if (c.status != 0 || !c.output.contains(" 0 wrong")) {
      fail("exit " + c.status + ":\n" + c.output);
    }
  }
}
