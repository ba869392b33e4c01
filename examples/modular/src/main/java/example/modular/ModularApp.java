package example.modular;

import io.github.blake3fast.Blake3;
import java.nio.file.Path;

/** Prints the engine, BLAKE3("abc") and the hash of the file given: examples/run.sh checks them. */
public final class ModularApp {
  private ModularApp() {}

  public static void main(String[] args) throws Exception {
    System.out.println("engine: " + Blake3.implementation());
    System.out.println("abc: " + Blake3.toHex(Blake3.hash("abc")));
    System.out.println("file: " + Blake3.toHex(Blake3.hashFile(Path.of(args[0]))));
  }
}
