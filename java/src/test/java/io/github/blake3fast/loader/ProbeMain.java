package io.github.blake3fast.loader;

import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;

/**
 * The main the loader tests run in child JVMs. It touches the library only through its public
 * API, by reflection, so the same code drives the class path's copy and copies in isolated class
 * loaders. Prints {@code key=value} lines; anything thrown is printed as {@code thrown...=}, never
 * rethrown, so a test sees it as text. Modes:
 *
 * <pre>
 *   once                  first use now: impl=, hash=
 *   gate DIR              create DIR/ready-PID, wait for DIR/go to appear, then as once
 *   interrupted           first use with the thread's interrupt flag set; interrupt-kept=
 *   threads N             N threads make their first call at once (one class loader)
 *   loaders N JAR         N threads, each in its own class loader over JAR, at once
 *   second JAR            the class path's copy first, then one isolated class loader over JAR
 *   classes NAME...       each named Blake3 class (e.g. a relocated copy) in turn: impl.I=, hash.I=
 * </pre>
 */
public final class ProbeMain {
  private ProbeMain() {}

  /** The official vector for 102400 bytes (byte i = i % 251): large enough to run native. */
  static final String EXPECTED = "bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085";

  public static void main(String[] args) throws Exception {
    String mode = args.length > 0 ? args[0] : "once";
    switch (mode) {
      case "once":
        report("", ProbeMain.class.getClassLoader());
        break;
      case "gate":
        java.nio.file.Path gate = Paths.get(args[1]);
        java.nio.file.Files.createFile(gate.resolve("ready-" + ProcessHandle.current().pid()));
        java.nio.file.Path go = gate.resolve("go");
        long until = System.currentTimeMillis() + 60_000;
        while (!java.nio.file.Files.exists(go) && System.currentTimeMillis() < until) {
          Thread.sleep(1);
        }
        report("", ProbeMain.class.getClassLoader());
        break;
      case "interrupted":
        Thread.currentThread().interrupt();
        report("", ProbeMain.class.getClassLoader());
        System.out.println("interrupt-kept=" + Thread.interrupted());
        break;
      case "threads":
        concurrently(Integer.parseInt(args[1]), null);
        break;
      case "loaders":
        concurrently(Integer.parseInt(args[1]), Paths.get(args[2]).toUri().toURL());
        break;
      case "second":
        report(".app", ProbeMain.class.getClassLoader());
        try (URLClassLoader l = isolated(Paths.get(args[1]).toUri().toURL())) {
          report(".isolated", l);
        }
        break;
      case "classes":
        for (int i = 1; i < args.length; i++) {
          report("." + i, ProbeMain.class.getClassLoader(), args[i]);
        }
        break;
      default:
        throw new IllegalArgumentException("mode " + mode);
    }
    System.out.println("done");
  }

  static URLClassLoader isolated(URL jar) {
    return new URLClassLoader(new URL[] {jar}, ClassLoader.getPlatformClassLoader());
  }

  static byte[] input() {
    byte[] b = new byte[102400];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (i % 251);
    }
    return b;
  }

  static final String BLAKE3 = "io.github.blake3fast.Blake3";

  /** [implementation, hex hash] through the Blake3 class that loader sees. */
  static String[] use(ClassLoader loader) throws ReflectiveOperationException {
    return use(loader, BLAKE3);
  }

  static String[] use(ClassLoader loader, String className) throws ReflectiveOperationException {
    Class<?> c = Class.forName(className, true, loader);
    byte[] h = (byte[]) c.getMethod("hash", byte[].class).invoke(null, (Object) input());
    String impl = (String) c.getMethod("implementation").invoke(null);
    StringBuilder hex = new StringBuilder();
    for (byte x : h) {
      hex.append(String.format("%02x", x));
    }
    return new String[] {impl, hex.toString()};
  }

  static void report(String suffix, ClassLoader loader) {
    report(suffix, loader, BLAKE3);
  }

  static void report(String suffix, ClassLoader loader, String className) {
    try {
      String[] r = use(loader, className);
      System.out.println("impl" + suffix + "=" + r[0]);
      System.out.println("hash" + suffix + "=" + (r[1].equals(EXPECTED) ? "ok" : "WRONG " + r[1]));
    } catch (Throwable t) {
      System.out.println("thrown" + suffix + "=" + describe(t));
    }
  }

  static String describe(Throwable t) {
    StringBuilder b = new StringBuilder();
    for (Throwable x = t; x != null; x = x.getCause()) {
      if (x instanceof InvocationTargetException) {
        continue;
      }
      if (b.length() > 0) {
        b.append(" <- ");
      }
      b.append(x);
    }
    return b.toString();
  }

  /** N threads make their first call at the same moment; prints the distinct answers. */
  static void concurrently(int n, URL jar) throws Exception {
    CyclicBarrier start = new CyclicBarrier(n);
    String[] results = new String[n];
    List<Thread> threads = new ArrayList<>();
    List<URLClassLoader> loaders = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int id = i;
      URLClassLoader l = jar == null ? null : isolated(jar);
      if (l != null) {
        loaders.add(l);
      }
      Thread t = new Thread(() -> {
        try {
          start.await();
          String[] r = use(l == null ? ProbeMain.class.getClassLoader() : l);
          results[id] = "impl=" + r[0] + " hash=" + (r[1].equals(EXPECTED) ? "ok" : "WRONG " + r[1]);
        } catch (Throwable x) {
          results[id] = "thrown=" + describe(x);
        }
      });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    for (URLClassLoader l : loaders) {
      l.close();
    }
    TreeSet<String> distinct = new TreeSet<>();
    for (int i = 0; i < n; i++) {
      distinct.add(results[i]);
    }
    System.out.println("calls=" + n);
    int k = 0;
    for (String d : distinct) {
      System.out.println("answer." + k++ + "=" + d);
    }
  }
}
