import io.github.blake3fast.Blake3;
import io.github.blake3fast.bao.Blake3Bao;
import io.github.blake3fast.bao.Blake3BaoDecoder;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Bao against Blake3.hashFile, side by side in one JVM on one warm file: outboard and combined
 * encoding, decoding with the outboard, and a 1 MiB slice from the outboard. Each operation runs
 * in rounds, interleaved with the others, so that the shared machine's drift hits them alike;
 * the figure is each operation's median and its ratio to hashFile's median.
 *
 * <p>Run: java -cp java/target/blake3-fast-*.jar bench/bao/BaoTiming.java FILE [ROUNDS]
 */
public class BaoTiming {
  interface Op {
    void run() throws Exception;
  }

  static final int SLICES = 10;

  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
    Path dir = Files.createTempDirectory("bao-timing");
    Path ob = dir.resolve("out.obao");
    Path enc = dir.resolve("out.bao");
    Path dec = dir.resolve("out.content");
    Blake3Bao bao = Blake3Bao.standard();
    byte[] hash = Blake3.hashFile(file);
    bao.outboard(file, ob);
    long len = Files.size(file);
    byte[] buf = new byte[1 << 20];
    String[] names = {"hashFile", "outboard encode", "combined encode", "outboard decode", "outboard decode to file",
      "1 MiB slice (outboard)"};
    Op[] ops = {
      () -> Blake3.hashFile(file),
      () -> bao.outboard(file, ob),
      () -> bao.encode(file, enc),
      () -> {
        try (Blake3BaoDecoder d = bao.outboardDecoder(hash, file, ob)) {
          while (d.read(buf) >= 0) {
            // verified bytes are dropped: the decoder's work is what is timed
          }
        }
      },
      () -> bao.decodeOutboard(hash, file, ob, dec),
      () -> {
        // Ten slices at scattered offsets per run: the figure printed is per slice.
        for (int i = 0; i < SLICES; i++) {
          try (FileChannel c = FileChannel.open(file); FileChannel o = FileChannel.open(ob)) {
            bao.sliceOutboard(c, o, (len / SLICES) * i + 12345 * i, 1 << 20, OutputStream.nullOutputStream());
          }
        }
      },
    };
    int[] per = {1, 1, 1, 1, 1, SLICES};
    int slices = 5;
    // An encoder's output is deleted before it is timed: replacing an existing file adds what the
    // file system takes to free the old one (on an ext4 mounted with discard, about 50 ms for a
    // 64 MiB outboard and 0.45 s for a 1 GiB encoding), which is not the encoder's work.
    Path[] fresh = {null, ob, enc, null, dec, null};
    long[][] t = new long[ops.length][rounds];
    for (int w = 0; w < 2; w++) {
      for (Op op : ops) {
        op.run(); // warm-up: JIT, page cache, thread pool
      }
    }
    for (int w = 0; w < 20; w++) {
      ops[slices].run(); // a server cuts many slices: time the compiled code
    }
    for (int r = 0; r < rounds; r++) {
      for (int i = 0; i < ops.length; i++) {
        if (fresh[i] != null) {
          Files.deleteIfExists(fresh[i]);
        }
        long t0 = System.nanoTime();
        ops[i].run();
        t[i][r] = System.nanoTime() - t0;
      }
    }
    System.out.printf("file %s, %d bytes, %d rounds, engine %s, %s %s; encoders and the decoder to a file write new files%n", file, len, rounds,
        Blake3.implementation(), System.getProperty("java.vm.name"), System.getProperty("java.version"));
    double base = median(t[0]);
    for (int i = 0; i < ops.length; i++) {
      double m = median(t[i]) / per[i];
      System.out.printf("%-24s median %9.2f ms  min %9.2f ms  ratio to hashFile %5.2f%n", names[i], m / 1e6,
          Arrays.stream(t[i]).min().getAsLong() / 1e6 / per[i], m / base);
    }
    Files.deleteIfExists(ob);
    Files.deleteIfExists(enc);
    Files.deleteIfExists(dec);
    Files.deleteIfExists(dir);
  }

  static double median(long[] v) {
    long[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
  }
}
