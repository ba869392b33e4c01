package example.boot;

import io.github.blake3fast.Blake3;
import java.nio.file.Path;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Prints the engine, BLAKE3("abc") and the hash of the file given: examples/run.sh checks them. */
@SpringBootApplication
public class BootApp implements CommandLineRunner {
  public static void main(String[] args) {
    SpringApplication.run(BootApp.class, args);
  }

  @Override
  public void run(String... args) throws Exception {
    System.out.println("engine: " + Blake3.implementation());
    System.out.println("abc: " + Blake3.toHex(Blake3.hash("abc")));
    System.out.println("file: " + Blake3.toHex(Blake3.hashFile(Path.of(args[0]))));
  }
}
