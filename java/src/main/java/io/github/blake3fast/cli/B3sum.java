package io.github.blake3fast.cli;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.Blake3Hasher;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/** The b3sum command: prints BLAKE3 hashes of files or standard input. */
public final class B3sum {
  private B3sum() {}

  public static void main(String[] args) {
    System.exit(run(args, System.in, System.out, System.err));
  }

  static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
    int length = 32;
    boolean names = true;
    List<String> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--no-names")) {
        names = false;
      } else if (a.equals("-l") || a.equals("--length")) {
        length = Integer.parseInt(args[++i]);
      } else if (a.startsWith("--length=")) {
        length = Integer.parseInt(a.substring(9));
      } else {
        files.add(a);
      }
    }
    if (files.isEmpty()) {
      files.add("-");
    }
    int status = 0;
    for (String f : files) {
      try {
        Blake3Hasher h = Blake3.newHasher();
        if (f.equals("-")) {
          byte[] buf = new byte[1 << 16];
          for (int n; (n = stdin.read(buf)) > 0; ) {
            h.update(buf, 0, n);
          }
        } else {
          h.update(java.nio.ByteBuffer.wrap(java.nio.file.Files.readAllBytes(Paths.get(f))));
        }
        String hex = Blake3.toHex(h.digest(length));
        out.print(names ? hex + "  " + f + "\n" : hex + "\n");
      } catch (IOException e) {
        err.print("b3sum: " + f + ": " + e.getMessage() + "\n");
        status = 1;
      }
    }
    out.flush();
    return status;
  }
}
