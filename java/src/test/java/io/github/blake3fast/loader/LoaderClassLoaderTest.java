package io.github.blake3fast.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.blake3fast.loader.Fixture.Jvm;
import io.github.blake3fast.loader.Fixture.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A second, isolated class loader over the same jar in one JVM (a web container's second app, a
 * test worker's fresh loader): the JVM lets only one loader own a library file, so the second
 * loads its own copy, or, when no copy can be written, runs Java. No UnsatisfiedLinkError ever
 * reaches the caller.
 */
@Tag("loader")
class LoaderClassLoaderTest {

  private static void assertBoth(Result r, String app, String isolated) {
    assertEquals(0, r.exit, r::toString);
    assertFalse(r.out.contains("thrown"), r::toString);
    assertEquals("ok", r.get("hash.app"), r::toString);
    assertEquals("ok", r.get("hash.isolated"), r::toString);
    assertTrue(Fixture.withoutVectorHint(r.get("impl.app")).matches(app), r::toString);
    assertTrue(Fixture.withoutVectorHint(r.get("impl.isolated")).matches(isolated), r::toString);
  }

  @Test
  void secondLoaderGetsItsOwnCopy() throws IOException {
    byte[] lib = Fixture.library();
    Path jar = Fixture.jar();
    Jvm j = new Jvm(Fixture.newDir("second"), jar).args("second", jar.toString());
    Result r = j.run();
    assertBoth(r, "native-\\S+", "native-\\S+");
    r.assertQuiet();
    Fixture.assertOneLibrary(j.tmpCache(Fixture.uid()), lib); // the copy is gone once loaded
  }

  @Test
  void secondLoaderWithAnExplicitPath() throws IOException {
    byte[] lib = Fixture.library();
    Path jar = Fixture.jar();
    Jvm j = new Jvm(Fixture.newDir("second-path"), jar).args("second", jar.toString());
    Path file = j.work.resolve("mine/libblake3fast.so");
    Files.createDirectories(file.getParent());
    Files.write(file, lib);
    Result r = j.opt("-Dblake3.native.path=" + file).run();
    assertBoth(r, "native-\\S+", "native-\\S+");
    r.assertQuiet();
    assertEquals(List.of(), Fixture.list(j.tmpCache(Fixture.uid())), "the copy was deleted once loaded");
  }

  @Test
  void secondLoaderFallsBackToJavaWhenNoCopyCanBeWritten() throws IOException {
    byte[] lib = Fixture.library();
    Fixture.assumeMounts();
    Path jar = Fixture.jar();
    Path work = Fixture.newDir("second-ro");
    Path dir = work.resolve("libs");
    new Jvm(work, jar).opt("-Dblake3.native.dir=" + dir).run().assertNative();
    Path f = Fixture.assertOneLibrary(dir, lib);
    Jvm j = new Jvm(work, jar).opt("-Dblake3.native.dir=" + dir).args("second", jar.toString());
    j.prefix.addAll(Fixture.inNamespace(Fixture.readOnlyBind(dir)));
    Result r = j.run();
    String reason = "native refused: " + f + " is loaded by another class loader and no private copy loaded: read-only " + dir;
    assertBoth(r, "native-\\S+", "\\Q" + "java (" + reason + ")" + "\\E");
    r.assertWarned(reason);
  }
}
