package io.github.blake3fast.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.blake3fast.loader.Fixture.Jvm;
import io.github.blake3fast.loader.Fixture.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * First use from 32 threads, from 32 class loaders at once, and from 4 JVMs at once on one cache
 * directory (real processes, started together against a shared deadline); repeated starts
 * reusing the file. Afterwards the directory holds one complete library file and nothing else.
 */
@Tag("loader")
class LoaderConcurrencyTest {

  @Test
  void thirtyTwoThreadsOneClassLoader() throws IOException {
    byte[] lib = Fixture.library();
    Jvm j = new Jvm(Fixture.newDir("threads"), Fixture.jar()).args("threads", "32");
    Result r = j.run();
    assertEquals("32", r.get("calls"), r::toString);
    assertEquals(null, r.get("answer.1"), "all 32 threads saw the same engine and hash\n" + r);
    assertTrue(r.get("answer.0").matches("impl=native-\\S+ hash=ok"), r::toString);
    r.assertQuiet();
    Fixture.assertOneLibrary(j.tmpCache(Fixture.uid()), lib);
  }

  @Test
  void thirtyTwoClassLoadersAtOnce() throws IOException {
    byte[] lib = Fixture.library();
    Path jar = Fixture.jar();
    Jvm j = new Jvm(Fixture.newDir("loaders"), jar).args("loaders", "32", jar.toString());
    Result r = j.run();
    assertEquals("32", r.get("calls"), r::toString);
    // One loader loads the shared file, the 31 others their own copies (deleted once loaded).
    assertEquals(null, r.get("answer.1"), "all 32 loaders got native code and the right hash\n" + r);
    assertTrue(r.get("answer.0").matches("impl=native-\\S+ hash=ok"), r::toString);
    r.assertQuiet();
    Fixture.assertOneLibrary(j.tmpCache(Fixture.uid()), lib);
  }

  @Test
  void fourJvmsAtOnceOnOneCacheDirectory() throws IOException {
    byte[] lib = Fixture.library();
    Path work = Fixture.newDir("jvms");
    Path cache = work.resolve("cache");
    for (int round = 0; round < 3; round++) {
      if (round == 1) {
        // Everyone finds a truncated file and rewrites it at the same moment.
        Path f = Fixture.assertOneLibrary(cache, lib);
        Files.write(f, Arrays.copyOf(lib, lib.length / 2));
      } else if (round == 2) {
        Fixture.deleteTree(cache);
      }
      // Each JVM starts, says it is ready, and waits for the gate: all four then make their
      // first call within a millisecond or two of each other.
      Path gate = Fixture.newDir("gate");
      List<Process> ps = new ArrayList<>();
      List<Jvm> jvms = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Jvm j = new Jvm(work.resolve("jvm" + i), Fixture.jar()).opt("-Dblake3.native.dir=" + cache)
            .args("gate", gate.toString());
        jvms.add(j);
        ps.add(j.start());
      }
      long until = System.currentTimeMillis() + 60_000;
      while (Fixture.list(gate).size() < 4 && System.currentTimeMillis() < until && ps.stream().allMatch(Process::isAlive)) {
        sleep(2);
      }
      Files.createFile(gate.resolve("go"));
      for (int i = 0; i < 4; i++) {
        Result r = Fixture.finish(jvms.get(i).command(), ps.get(i), Duration.ofSeconds(60));
        r.assertNative().assertQuiet();
      }
      Fixture.assertOneLibrary(cache, lib);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void repeatedStartsReuseTheFile() throws IOException {
    byte[] lib = Fixture.library();
    Jvm j = new Jvm(Fixture.newDir("reuse"), Fixture.jar());
    j.run().assertNative();
    Path f = Fixture.assertOneLibrary(j.tmpCache(Fixture.uid()), lib);
    Object inode = Files.getAttribute(f, "unix:ino");
    Object mtime = Files.getLastModifiedTime(f);
    for (int i = 0; i < 3; i++) {
      j.run().assertNative().assertQuiet();
    }
    assertEquals(inode, Files.getAttribute(Fixture.assertOneLibrary(j.tmpCache(Fixture.uid()), lib), "unix:ino"));
    assertEquals(mtime, Files.getLastModifiedTime(f), "not rewritten");
    assertEquals(List.of(), Fixture.list(j.homeCache()), "and nothing anywhere else");
  }

  @Test
  void anInterruptedFirstCallerStillGetsNativeCode() throws IOException {
    Fixture.library();
    Result r = new Jvm(Fixture.newDir("interrupted"), Fixture.jar()).args("interrupted").run();
    r.assertNative().assertQuiet();
    assertEquals("true", r.get("interrupt-kept"), "the caller's interrupt is left for it to see\n" + r);
  }
}
