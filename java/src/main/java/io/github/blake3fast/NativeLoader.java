package io.github.blake3fast;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Owns everything between "the jar carries a native library" and "this kernel runs": reading
 * the switches, extracting the library once per content hash, loading it, checking it, and
 * saying why the Java engine runs when it does. Never throws: every failure becomes a reason.
 */
final class NativeLoader {
  private NativeLoader() {}

  static final String PROP_NATIVE = "blake3.native";
  static final String PROP_ISA = "blake3.isa";
  static final String PROP_PATH = "blake3.native.path";
  static final String PROP_DIR = "blake3.native.dir";
  /** Test-only: makes the self-test see a wrong native result, to prove it is acted upon. */
  static final String PROP_CORRUPT_FOR_TEST = "blake3.test.corruptNative";
  /** Read by the library's JNI_OnLoad: the binary name of the class to register natives on. */
  static final String PROP_JNI_CLASS = "blake3fast.jni.class";

  /** What was chosen: a kernel, and a description for {@link Blake3#implementation()}. */
  static final class Choice {
    final Kernel kernel;
    final String description;

    Choice(Kernel kernel, String description) {
      this.kernel = kernel;
      this.description = description;
    }
  }

  private static final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;

    Refusal(String reason) {
      super(reason, null, false, false);
    }
  }

  static Choice choose() {
    try {
      NativeKernel k = load();
      return new Choice(k, k.name());
    } catch (Refusal r) {
      return javaBecause(r.getMessage());
    } catch (Throwable t) { // an Error from a broken library must not fail class init
      return javaBecause("native refused: " + t);
    }
  }

  private static Choice javaBecause(String reason) {
    String description = "java (" + reason + ")";
    System.getLogger("io.github.blake3fast").log(System.Logger.Level.INFO, "blake3-fast: using " + description);
    return new Choice(JavaKernel.INSTANCE, description);
  }

  private static NativeKernel load() throws Refusal {
    String enabled = System.getProperty(PROP_NATIVE, "true").trim().toLowerCase(Locale.ROOT);
    if (enabled.equals("false")) {
      throw new Refusal("native disabled by -D" + PROP_NATIVE + "=false");
    }
    if (!enabled.equals("true")) {
      throw new Refusal("-D" + PROP_NATIVE + "=" + enabled + " is neither true nor false");
    }
    int cap = -1;
    String isa = System.getProperty(PROP_ISA);
    if (isa != null) {
      isa = isa.trim().toLowerCase(Locale.ROOT);
      if (isa.equals("java")) {
        throw new Refusal("native disabled by -D" + PROP_ISA + "=java");
      }
      cap = NativeBlake3.isaNumber(isa);
      if (cap < 0) {
        throw new Refusal("-D" + PROP_ISA + "=" + isa + " is not one of java, "
            + String.join(", ", NativeBlake3.ISA_NAMES));
      }
    }

    String explicit = System.getProperty(PROP_PATH);
    if (explicit != null) {
      loadFrom(Paths.get(explicit));
    } else {
      extractAndLoad();
    }

    int abi = NativeBlake3.abiVersion();
    if (abi != NativeBlake3.ABI_VERSION) {
      throw new Refusal("native library speaks ABI " + abi + ", this class " + NativeBlake3.ABI_VERSION);
    }
    int chosen = NativeBlake3.selectIsa(cap);
    if (chosen < 0 || chosen >= NativeBlake3.ISA_NAMES.length) {
      throw new Refusal("-D" + PROP_ISA + "=" + isa + " cannot run on this CPU (it runs: " + supported() + ")");
    }
    NativeKernel kernel = new NativeKernel(chosen);
    String mismatch = SelfTest.compare(kernel, Boolean.getBoolean(PROP_CORRUPT_FOR_TEST));
    if (mismatch != null) {
      System.getLogger("io.github.blake3fast").log(System.Logger.Level.WARNING,
          "blake3-fast: the native " + kernel.name() + " kernel failed its self-test (" + mismatch
              + "); using the Java engine");
      throw new Refusal("native " + kernel.name() + " failed its self-test: " + mismatch);
    }
    return kernel;
  }

  private static String supported() {
    int bits = NativeBlake3.supportedIsas();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < NativeBlake3.ISA_NAMES.length; i++) {
      if ((bits & (1 << i)) != 0) {
        names.add(NativeBlake3.ISA_NAMES[i]);
      }
    }
    return String.join(", ", names);
  }

  /** linux-x86_64 and friends, or null where the jar has no library. */
  static String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (!os.startsWith("linux")) {
      return null;
    }
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    switch (arch) {
      case "amd64":
      case "x86_64":
        return "linux-x86_64";
      case "aarch64":
        return "linux-aarch64";
      case "ppc64le":
        return "linux-ppc64le";
      case "riscv64":
        return "linux-riscv64";
      case "loongarch64":
        return "linux-loongarch64";
      case "s390x":
        return "linux-s390x";
      default:
        return null;
    }
  }

  private static void extractAndLoad() throws Refusal {
    String platform = platform();
    if (platform == null) {
      throw new Refusal("no native library for " + System.getProperty("os.name") + "/" + System.getProperty("os.arch"));
    }
    String resource = "/META-INF/native/" + platform + "/libblake3fast.so";
    byte[] lib;
    try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new Refusal("the jar has no native library for " + platform);
      }
      lib = in.readAllBytes();
    } catch (IOException e) {
      throw new Refusal("cannot read " + resource + ": " + e);
    }
    String name = "libblake3fast-" + sha256(lib).substring(0, 24) + ".so";
    List<String> reasons = new ArrayList<>();
    for (Path dir : candidateDirs()) {
      try {
        Path file = extract(lib, dir, name);
        loadFrom(file);
        return;
      } catch (Refusal | IOException | RuntimeException e) {
        reasons.add(dir + ": " + e.getMessage());
      }
    }
    throw new Refusal("native refused: " + String.join("; ", reasons));
  }

  private static List<Path> candidateDirs() {
    List<Path> dirs = new ArrayList<>();
    String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
    String configured = System.getProperty(PROP_DIR);
    if (configured != null) {
      dirs.add(Paths.get(configured));
    }
    String tmp = System.getProperty("java.io.tmpdir");
    if (tmp != null) {
      dirs.add(Paths.get(tmp, "blake3-fast-" + user));
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    String home = System.getProperty("user.home");
    if (xdg != null && !xdg.isEmpty()) {
      dirs.add(Paths.get(xdg, "blake3-fast"));
    } else if (home != null) {
      dirs.add(Paths.get(home, ".cache", "blake3-fast"));
    }
    return dirs;
  }

  /**
   * The library at dir/name, written there first if it is not already present with the same
   * content. Written under a temporary name and renamed atomically, so a concurrent reader in
   * another thread or process sees either nothing or the whole file.
   */
  private static Path extract(byte[] lib, Path dir, String name) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(name);
    if (Files.isRegularFile(file) && Arrays.equals(Files.readAllBytes(file), lib)) {
      return file;
    }
    Path tmp = Files.createTempFile(dir, name + ".", ".tmp");
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE);
          OutputStream out = java.nio.channels.Channels.newOutputStream(ch)) {
        out.write(lib);
        out.flush();
        ch.force(true);
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
    return file;
  }

  private static void loadFrom(Path file) throws Refusal {
    synchronized (System.getProperties()) {
      String previous = System.getProperty(PROP_JNI_CLASS);
      System.setProperty(PROP_JNI_CLASS, NativeBlake3.class.getName());
      try {
        System.load(file.toAbsolutePath().toString());
      } catch (UnsatisfiedLinkError e) {
        throw new Refusal(explain(file, e));
      } finally {
        if (previous == null) {
          System.clearProperty(PROP_JNI_CLASS);
        } else {
          System.setProperty(PROP_JNI_CLASS, previous);
        }
      }
    }
  }

  private static String explain(Path file, UnsatisfiedLinkError e) {
    String msg = String.valueOf(e.getMessage());
    if (msg.contains("failed to map segment")) {
      return "noexec " + file.getParent() + " (" + msg + ")";
    }
    return msg;
  }

  private static String sha256(byte[] data) {
    try {
      return Hex.encode(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JDK has SHA-256
    }
  }
}
