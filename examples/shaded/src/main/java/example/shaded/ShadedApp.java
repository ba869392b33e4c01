package example.shaded;

import io.github.blake3fast.Blake3;
import java.nio.file.Path;
import java.security.Provider;
import java.util.ServiceLoader;

/**
 * Prints the engine, BLAKE3("abc"), the hash of the file given and the library's provider as
 * ServiceLoader finds it after relocation: examples/run.sh checks them.
 */
public final class ShadedApp {
  private ShadedApp() {}

  public static void main(String[] args) throws Exception {
    System.out.println("engine: " + Blake3.implementation());
    System.out.println("abc: " + Blake3.toHex(Blake3.hash("abc")));
    System.out.println("file: " + Blake3.toHex(Blake3.hashFile(Path.of(args[0]))));
    for (Provider p : ServiceLoader.load(Provider.class)) {
      if (p.getClass().getName().startsWith("example.")) {
        System.out.println("provider: " + p.getClass().getName() + " " + p.getName());
      }
    }
  }
}
