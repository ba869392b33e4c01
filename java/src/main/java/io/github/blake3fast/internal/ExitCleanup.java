package io.github.blake3fast.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Temporary files to delete if the JVM exits while they are in use: Ctrl-C (SIGINT), SIGTERM or
 * {@code System.exit} in the middle of writing an output would otherwise leave the file behind
 * (the thread writing it never reaches its {@code finally}). Only SIGKILL, or the machine
 * stopping, can still leave one.
 *
 * <p>One shutdown hook, installed with the first file and kept: the only way to run code as the
 * JVM exits. {@link java.io.File#deleteOnExit} would do the same but keeps every name it was
 * given until the JVM exits, which a server writing files for weeks cannot afford; here a name
 * is forgotten as soon as its file is moved into place or deleted.
 *
 * <p><b>Internal: not API; may change or go in any release.</b>
 */
public final class ExitCleanup {
  private ExitCleanup() {}

  private static final Set<Path> PENDING = ConcurrentHashMap.newKeySet();
  private static boolean hooked;

  /**
   * Deletes {@code file} at exit unless {@link #forget} is called first.
   *
   * @param file a temporary file just created
   */
  public static void add(Path file) {
    hook();
    PENDING.add(file);
  }

  /**
   * Forgets {@code file}: it was moved into place, or deleted.
   *
   * @param file a file given to {@link #add}
   */
  public static void forget(Path file) {
    PENDING.remove(file);
  }

  private static synchronized void hook() {
    if (hooked) {
      return;
    }
    try {
      Runtime.getRuntime().addShutdownHook(new Hook());
    } catch (IllegalStateException e) {
      return; // the JVM is already exiting: the caller's own cleanup is all there is
    }
    hooked = true;
  }

  /**
   * Deletes what is still pending. A class, not a lambda: the first lambda of a JVM spins the
   * method-handle machinery, milliseconds of a short command's start.
   */
  private static final class Hook extends Thread {
    Hook() {
      super("blake3-exit-cleanup");
    }

    @Override
    public void run() {
      for (Path p : PENDING) {
        try {
          Files.deleteIfExists(p);
        } catch (IOException | RuntimeException e) {
          // the JVM is exiting: nothing to tell, nobody to tell it to
        }
      }
    }
  }
}
