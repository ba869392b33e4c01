package io.github.blake3fast.loader;

import io.github.blake3fast.Blake3;

/**
 * The main StartupClassesTest runs in a child JVM: the first use of the library, a hash of
 * three bytes and nothing else; or, given the argument "nothing", nothing at all (what the JVM
 * does by itself); or, given "view", only the byte-array view VarHandle the Java engine creates
 * when it is chosen (what the JDK spins for it). No string concatenation, lambda or reflection
 * here, so that every class spun or loaded beyond that is the library's doing.
 */
public final class FirstHashMain {
  private FirstHashMain() {}

  public static void main(String[] args) throws java.io.IOException {
    if (args.length > 0 && args[0].equals("nothing")) {
      return;
    }
    if (args.length > 0 && args[0].equals("view")) {
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
      return;
    }
    byte[] h;
    if (args.length > 1 && args[0].equals("file")) {
      h = Blake3.hashFile(java.nio.file.Path.of(args[1]));
    } else {
      h = Blake3.hash(new byte[] {1, 2, 3});
    }
    System.out.println(Blake3.implementation());
    System.out.println(Blake3.toHex(h));
  }
}
