package io.github.blake3fast.bench;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.Blake3Hasher;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.ObjectName;
import org.bouncycastle.crypto.digests.Blake3Digest;

/**
 * How much memory one hasher keeps alive, measured two independent ways, with no dependency
 * beyond the JDK:
 *
 * <ol>
 *   <li><b>heap</b>: the JVM's live-object class histogram (the {@code GC.class_histogram}
 *       diagnostic command, through its MBean; each one runs a full GC) before and after
 *       allocating {@code n} hashers into an array; the growth divided by {@code n}. Objects
 *       shared by all hashers (a kernel singleton, a provider) vanish in the division. (The
 *       {@code Runtime.totalMemory() - freeMemory()} difference across {@code System.gc()} was
 *       tried first and kept counting garbage as used on JDK 17.)</li>
 *   <li><b>layout</b>: walk the hasher's object graph by reflection and add up HotSpot's object
 *       sizes (header 12 bytes with compressed class pointers, else 16; references 4 bytes with
 *       compressed oops, else 8; arrays have a 16-byte header; everything rounded up to 8).
 *       Objects also reachable from a second, independent hasher are shared and not counted.
 *       Field packing can make HotSpot's real size a few bytes smaller than this sum.</li>
 * </ol>
 *
 * <p>Each hasher is measured fresh, after a 1-byte update (its input buffer now exists),
 * after one 64 KiB + 1 byte update (its chaining-value scratch now exists too) and, for
 * blake3-fast, after the same input in 64-byte updates (which may grow its buffer). Peers are measured
 * the same way for context. JDK internals (SHA-256) need {@code --add-opens} for the layout
 * walk; without it that entry says so.
 *
 * <p>Usage: {@code java -XX:+UseSerialGC -Xms4g -Xmx4g -cp benchmarks.jar
 * io.github.blake3fast.bench.HasherFootprint [out.json]}
 */
public final class HasherFootprint {
  private static final int N_FRESH = 100_000;
  private static final int N_USED = 20_000;
  private static final byte[] ONE = new byte[1];
  private static final byte[] BIG = Inputs.random(64 * 1024 + 1);

  private HasherFootprint() {}

  public static void main(String[] args) throws Exception {
    Layout layout = Layout.detect();
    List<String> rows = new ArrayList<>();
    String engine = Blake3.implementation();
    System.out.println("engine: " + engine);
    System.out.println("layout model: header " + layout.header + " B, reference " + layout.ref + " B");
    System.out.printf(Locale.ROOT, "%-48s %10s %10s%n", "hasher", "heap B", "layout B");

    rows.add(measure("blake3-fast newHasher()", "blake3fast", "fresh", N_FRESH,
        Blake3::newHasher, layout));
    rows.add(measure("blake3-fast newHasher() + update(1 B)", "blake3fast", "after 1 B", N_USED,
        () -> Blake3.newHasher().update(ONE), layout));
    rows.add(measure("blake3-fast newHasher() + update(64 KiB + 1 B)", "blake3fast", "after 64 KiB",
        N_USED, () -> Blake3.newHasher().update(BIG), layout));
    rows.add(measure("blake3-fast newHasher() + 64 KiB + 1 B in 64 B updates", "blake3fast",
        "after 64 KiB streamed", N_USED, () -> {
          Blake3Hasher h = Blake3.newHasher();
          for (int off = 0; off < BIG.length; off += Inputs.UPDATE_LEN) {
            h.update(BIG, off, Math.min(Inputs.UPDATE_LEN, BIG.length - off));
          }
          return h;
        }, layout));

    rows.add(measure("commons-codec Blake3.initHash()", "commonsCodec", "fresh", N_FRESH,
        org.apache.commons.codec.digest.Blake3::initHash, layout));
    rows.add(measure("commons-codec Blake3.initHash() + update(64 KiB + 1 B)", "commonsCodec",
        "after 64 KiB", N_USED, () -> org.apache.commons.codec.digest.Blake3.initHash().update(BIG), layout));

    rows.add(measure("Bouncy Castle new Blake3Digest()", "bouncyCastle", "fresh", N_FRESH,
        Blake3Digest::new, layout));
    rows.add(measure("Bouncy Castle new Blake3Digest() + update(64 KiB + 1 B)", "bouncyCastle",
        "after 64 KiB", N_USED, () -> {
          Blake3Digest d = new Blake3Digest();
          d.update(BIG, 0, BIG.length);
          return d;
        }, layout));

    rows.add(measure("MessageDigest.getInstance(\"SHA-256\")", "sha256", "fresh", N_FRESH,
        HasherFootprint::sha256, layout));
    rows.add(measure("MessageDigest SHA-256 + update(64 KiB + 1 B)", "sha256", "after 64 KiB",
        N_USED, () -> {
          MessageDigest d = sha256();
          d.update(BIG);
          return d;
        }, layout));

    String json = "{\n  \"engine\": " + quote(engine)
        + ",\n  \"java\": " + quote(System.getProperty("java.vm.name") + " " + System.getProperty("java.version"))
        + ",\n  \"gc\": " + quote(gcNames())
        + ",\n  \"layoutHeaderBytes\": " + layout.header
        + ",\n  \"layoutReferenceBytes\": " + layout.ref
        + ",\n  \"rows\": [\n    " + String.join(",\n    ", rows) + "\n  ]\n}\n";
    if (args.length > 0) {
      Path out = Paths.get(args[0]);
      Files.write(out, json.getBytes(StandardCharsets.UTF_8));
      System.out.println("wrote " + out);
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String measure(String label, String impl, String state, int n,
      Supplier<Object> factory, Layout layout) {
    // Warm the factory so class loading and one-time statics are not counted.
    for (int i = 0; i < 1000; i++) {
      factory.get();
    }
    Object[] keep = new Object[n];
    Map<String, long[]> before = liveHistogram();
    for (int i = 0; i < n; i++) {
      keep[i] = factory.get();
    }
    Map<String, long[]> after = liveHistogram();
    String heapJson;
    double heap;
    if (before != null && after != null) {
      // Live bytes per class, after minus before: what n hashers keep alive, class by class.
      Map<String, long[]> grown = new TreeMap<>();
      long total = 0;
      for (Map.Entry<String, long[]> e : after.entrySet()) {
        long[] b = before.getOrDefault(e.getKey(), new long[2]);
        long objects = e.getValue()[0] - b[0];
        long bytes = e.getValue()[1] - b[1];
        total += bytes;
        if (objects >= n / 2) { // at least one object per two hashers: part of a hasher
          grown.put(e.getKey(), new long[] {Math.round(objects / (double) n), Math.round(bytes / (double) n)});
        }
      }
      for (Map.Entry<String, long[]> e : before.entrySet()) {
        if (!after.containsKey(e.getKey())) {
          total -= e.getValue()[1];
        }
      }
      heap = total / (double) n;
      heapJson = "\"heapMethod\": \"class histogram diff\", \"heapParts\": " + partsJson(grown);
    } else {
      heap = Double.NaN;
      heapJson = "\"heapMethod\": \"unavailable (no DiagnosticCommand MBean)\"";
    }

    String layoutJson;
    String layoutText;
    try {
      Map<String, long[]> parts = layout.retained(keep[0], keep[1]);
      long total = 0;
      for (long[] v : parts.values()) {
        total += v[1];
      }
      layoutJson = "\"layoutBytes\": " + total + ", \"layoutParts\": " + partsJson(parts);
      layoutText = Long.toString(total);
    } catch (RuntimeException e) {
      layoutJson = "\"layoutBytes\": null, \"layoutError\": " + quote(e.toString());
      layoutText = "n/a";
    }
    if (keep[n - 1] == null) {
      throw new AssertionError(); // keeps every hasher reachable up to here
    }
    Arrays.fill(keep, null); // and not one moment longer, whatever the JIT thinks
    System.out.printf(Locale.ROOT, "%-48s %10.1f %10s%n", label, heap, layoutText);
    return String.format(Locale.ROOT,
        "{\"label\": %s, \"impl\": %s, \"state\": %s, \"n\": %d, \"heapBytes\": %s, %s, %s}",
        quote(label), quote(impl), quote(state), n,
        Double.isNaN(heap) ? "null" : String.format(Locale.ROOT, "%.1f", heap), heapJson, layoutJson);
  }

  /**
   * Live objects per class, {instances, bytes}, from the JVM's own class histogram (the
   * {@code GC.class_histogram} diagnostic command, which runs a full GC first), or null where
   * the JVM has no such command. Exact, unlike {@code Runtime.totalMemory() - freeMemory()},
   * which here kept reporting garbage as used for a while after {@code System.gc()}.
   */
  private static Map<String, long[]> liveHistogram() {
    String text;
    try {
      text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
          new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
          new Object[] {new String[0]}, new String[] {String[].class.getName()});
    } catch (JMException | RuntimeException e) {
      return null;
    }
    Map<String, long[]> h = new HashMap<>();
    for (String line : text.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 4 && f[0].endsWith(":") && !f[0].equals("Total")) {
        h.put(f[3], new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])});
      }
    }
    return h;
  }

  private static String partsJson(Map<String, long[]> parts) {
    StringBuilder sb = new StringBuilder("{");
    for (Map.Entry<String, long[]> e : parts.entrySet()) {
      if (sb.length() > 1) {
        sb.append(", ");
      }
      sb.append(quote(e.getKey())).append(": [").append(e.getValue()[0]).append(", ")
          .append(e.getValue()[1]).append(']');
    }
    return sb.append('}').toString();
  }

  private static String gcNames() {
    List<String> names = new ArrayList<>();
    ManagementFactory.getGarbageCollectorMXBeans().forEach(b -> names.add(b.getName()));
    return String.join(", ", names);
  }

  private static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }

  /** HotSpot's object sizes, from the two flags that decide them. */
  static final class Layout {
    final int header;
    final int ref;

    private Layout(int header, int ref) {
      this.header = header;
      this.ref = ref;
    }

    static Layout detect() {
      boolean oops = flag("UseCompressedOops", true);
      boolean klass = flag("UseCompressedClassPointers", true);
      return new Layout(klass ? 12 : 16, oops ? 4 : 8);
    }

    private static boolean flag(String name, boolean dflt) {
      try {
        Class<?> bean = Class.forName("com.sun.management.HotSpotDiagnosticMXBean");
        @SuppressWarnings("unchecked")
        Object mx = ManagementFactory.getPlatformMXBean((Class) bean);
        Object option = bean.getMethod("getVMOption", String.class).invoke(mx, name);
        return Boolean.parseBoolean((String) option.getClass().getMethod("getValue").invoke(option));
      } catch (ReflectiveOperationException | RuntimeException e) {
        return dflt;
      }
    }

    /** The parts entry counting retained objects whose fields could not be read. */
    static final String INCOMPLETE = "(not walked into: needs --add-opens)";

    /** Class name -> {objects, bytes} reachable from {@code a} but not from {@code b}. */
    Map<String, long[]> retained(Object a, Object b) {
      Set<Object> shared = reach(b).keySet();
      Map<String, long[]> parts = new TreeMap<>();
      for (Map.Entry<Object, Boolean> e : reach(a).entrySet()) {
        Object o = e.getKey();
        if (!shared.contains(o)) {
          if (!e.getValue()) {
            parts.computeIfAbsent(INCOMPLETE, k -> new long[2])[0]++;
          }
          long[] p = parts.computeIfAbsent(o.getClass().getTypeName(), k -> new long[2]);
          p[0]++;
          p[1] += sizeOf(o);
        }
      }
      return parts;
    }

    private static Map<Object, Boolean> reach(Object root) {
      Map<Object, Boolean> seen = new IdentityHashMap<>();
      ArrayDeque<Object> todo = new ArrayDeque<>();
      todo.add(root);
      while (!todo.isEmpty()) {
        Object o = todo.poll();
        if (seen.put(o, Boolean.TRUE) != null || stop(o)) {
          continue;
        }
        Class<?> c = o.getClass();
        if (c.isArray()) {
          if (!c.getComponentType().isPrimitive()) {
            for (int i = 0, n = Array.getLength(o); i < n; i++) {
              Object e = Array.get(o, i);
              if (e != null) {
                todo.add(e);
              }
            }
          }
          continue;
        }
        for (; c != null; c = c.getSuperclass()) {
          for (Field f : c.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
              continue;
            }
            if (!f.trySetAccessible()) {
              // A JDK internal without --add-opens: counted, not walked into.
              seen.put(o, Boolean.FALSE);
              continue;
            }
            try {
              Object v = f.get(o);
              if (v != null) {
                todo.add(v);
              }
            } catch (IllegalAccessException e) {
              throw new IllegalStateException(e);
            }
          }
        }
      }
      return seen;
    }

    /** Shared infrastructure: counted if reached, never walked into. */
    private static boolean stop(Object o) {
      return o instanceof Class || o instanceof ClassLoader || o instanceof Thread
          || o instanceof java.security.Provider || o instanceof Module;
    }

    long sizeOf(Object o) {
      Class<?> c = o.getClass();
      long size;
      if (c.isArray()) {
        Class<?> t = c.getComponentType();
        size = 16L + (long) Array.getLength(o) * (t.isPrimitive() ? primitiveSize(t) : ref);
      } else {
        size = header;
        for (; c != null; c = c.getSuperclass()) {
          for (Field f : c.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
              size += f.getType().isPrimitive() ? primitiveSize(f.getType()) : ref;
            }
          }
        }
      }
      return (size + 7) & ~7L;
    }

    private static int primitiveSize(Class<?> t) {
      if (t == long.class || t == double.class) {
        return 8;
      }
      if (t == int.class || t == float.class) {
        return 4;
      }
      if (t == short.class || t == char.class) {
        return 2;
      }
      return 1;
    }
  }
}
