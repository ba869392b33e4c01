package io.github.blake3fast.cli;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.bao.Blake3Bao;
import io.github.blake3fast.bao.Blake3BaoDecoder;
import io.github.blake3fast.bao.Blake3BaoException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * The bao command: the official {@code bao} tool's command line (bao_bin 0.12/0.13), over
 * {@link Blake3Bao}. Outputs are byte for byte the official tool's; a failure (verification
 * included) is one line on standard error, {@code Error: ...}, and status 1. Two things differ:
 * it never writes over its input ({@code Error: NAME: input file is output file}, checked by
 * {@link StdFiles} before anything is opened for writing), and a file output appears whole or
 * not at all ({@link BaoOutput}), where the official tool truncates it first.
 */
public final class Bao {
  private Bao() {}

  static final String USAGE = "\n"
      + "Usage: bao hash [<inputs>...]\n"
      + "       bao encode <input> (<output> | --outboard=<file>)\n"
      + "       bao decode <hash> [<input>] [<output>] [--outboard=<file>] [--start=<offset>] [--count=<count>]\n"
      + "       bao slice <start> <count> [<input>] [<output>] [--outboard=<file>]\n"
      + "       bao decode-slice <hash> <start> <count> [<input>] [<output>]\n"
      + "       bao (--help | --version)\n";

  static final String VERSION = "0.13.1";

  /**
   * Runs the command line and exits with its status.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    if (System.getProperty("java.util.logging.config.file") == null) {
      System.setProperty("java.util.logging.config.file", "/dev/null"); // stderr is the tool's alone
    }
    int status = run(args, StdFiles.ofProcess(), new FileInputStream(FileDescriptor.in),
        new FileOutputStream(FileDescriptor.out), new FileOutputStream(FileDescriptor.err));
    if (status != 0) {
      System.exit(status);
    }
  }

  /**
   * Runs bao with these arguments and streams (none is closed).
   *
   * @param args the command line
   * @param stdin standard input
   * @param stdout standard output
   * @param stderr standard error
   * @return the exit status: 0, or 1 after a failure
   */
  public static int run(String[] args, InputStream stdin, OutputStream stdout, OutputStream stderr) {
    return run(args, StdFiles.NONE, stdin, stdout, stderr);
  }

  /**
   * As {@link #run(String[], InputStream, OutputStream, OutputStream)}, knowing which files the
   * standard streams are.
   */
  static int run(String[] args, StdFiles std, InputStream stdin, OutputStream stdout, OutputStream stderr) {
    try {
      BaoArgs a = BaoArgs.parse(args);
      if (a == null) {
        stderr.write(USAGE.substring(1).getBytes(StandardCharsets.UTF_8));
        stderr.flush();
        return 1;
      }
      return new Command(a, std, stdin, stdout).run();
    } catch (IOException | Fatal | RuntimeException e) {
      String msg = e instanceof IOException && !(e instanceof Blake3BaoException)
          ? OsErrors.describe((IOException) e) : e.getMessage();
      try {
        stdout.flush();
        stderr.write(("Error: " + msg.replace('\n', ' ') + "\n").getBytes(StandardCharsets.UTF_8));
        stderr.flush();
      } catch (IOException ignored) {
        // nowhere left to say it; the status says it
      }
      return 1;
    }
  }

  private static final class Command {
    private final BaoArgs a;
    private final StdFiles std;
    private final InputStream stdin;
    private final OutputStream stdout;
    private final Blake3Bao bao = Blake3Bao.standard();

    Command(BaoArgs a, StdFiles std, InputStream stdin, OutputStream stdout) {
      this.a = a;
      this.std = std;
      this.stdin = stdin;
      this.stdout = stdout;
    }

    int run() throws IOException, Fatal {
      switch (a.command) {
        case "--help": print(USAGE); return 0; // the official tool prints the usage with its leading newline
        case "--version": print(VERSION + "\n"); return 0;
        case "hash": return hash();
        case "encode": encode(); return 0;
        case "decode": decode(); return 0;
        case "slice": slice(); return 0;
        default: decodeSlice(); return 0;
      }
    }

    private void print(String s) throws IOException {
      stdout.write(s.getBytes(StandardCharsets.UTF_8));
      stdout.flush();
    }

    private int hash() throws IOException {
      if (a.positional.isEmpty()) {
        print(Blake3.toHex(hashOne(null)) + "\n");
        return 0;
      }
      boolean failed = false;
      for (String name : a.positional) {
        try {
          byte[] h = hashOne(name);
          print(Blake3.toHex(h) + (a.positional.size() > 1 ? "  " + name : "") + "\n");
        } catch (IOException e) {
          failed = true;
          print("bao: " + name + ": " + OsErrors.describe(e) + "\n");
        }
      }
      return failed ? 1 : 0;
    }

    private byte[] hashOne(String name) throws IOException {
      Path p = path(name);
      if (p == null) {
        return Blake3.newHasher().update(stdin).digest();
      }
      if (Files.isDirectory(p)) {
        throw new IOException(OsErrors.IS_A_DIRECTORY);
      }
      return Files.isRegularFile(p) ? Blake3.hashFile(p) : Blake3.newHasher().updateFile(p).digest();
    }

    private static Path path(String name) {
      return name == null || name.equals("-") ? null : Paths.get(name);
    }

    private void encode() throws IOException, Fatal {
      Path in = path(a.at(0));
      Path out = path(a.outboard != null ? a.outboard : a.at(1));
      // The official tool opens the input first: its errors come before the output's. A FIFO
      // is opened once, here, to be read as the stream it is.
      try (InputStream src = in == null ? stdin : Files.newInputStream(in)) {
        if (out == null) {
          throw new Fatal("output must be a real file");
        }
        std.refuse(out, in);
        if (in != null && Files.isRegularFile(in)) {
          if (a.outboard != null) { // read again by position, on several threads
            bao.outboard(in, out);
          } else {
            bao.encode(in, out);
          }
          return;
        }
        try (BaoOutput dst = BaoOutput.open(out, stdout)) {
          if (a.outboard != null) {
            bao.outboard(src, dst.stream());
          } else {
            bao.encode(src, dst.stream());
          }
          dst.finish();
        }
      }
    }

    private byte[] parseHash(String hex) throws Fatal {
      byte[] h;
      try {
        h = Blake3.fromHex(hex);
      } catch (IllegalArgumentException e) {
        throw new Fatal("invalid hex");
      }
      if (h.length != 32) {
        throw new Fatal("wrong length hash");
      }
      return h;
    }

    private void decode() throws IOException, Fatal {
      byte[] hash = parseHash(a.at(0));
      Path in = path(a.at(1));
      Path ob = a.outboard == null ? null : path(a.outboard);
      Blake3BaoDecoder d;
      if (a.start != null && (in == null || (a.outboard != null && ob == null))) {
        throw new Fatal("input must be a real file");
      }
      Path outName = path(a.at(2));
      std.refuse(outName, a.outboard == null ? new Path[] {in} : new Path[] {in, ob});
      if (a.start == null && a.count == null && outName != null && in != null && (a.outboard == null || ob != null)) {
        // Named files: the library reads regular ones by position, on several threads
        if (a.outboard != null) {
          bao.decodeOutboard(hash, in, ob, outName);
        } else {
          bao.decode(hash, in, outName);
        }
        return;
      }
      InputStream inStream = in == null ? stdin : null;
      if (a.outboard != null) {
        d = in != null && ob != null ? bao.outboardDecoder(hash, in, ob)
            : bao.outboardDecoder(hash, in == null ? stdin : Files.newInputStream(in),
                ob == null ? stdin : Files.newInputStream(ob));
      } else {
        d = in != null ? bao.decoder(hash, in) : bao.decoder(hash, inStream);
      }
      try (d; BaoOutput out = BaoOutput.open(outName, stdout)) {
        if (a.start != null) {
          d.seek(a.start);
        }
        copyOut(d, a.count == null ? Long.MAX_VALUE : a.count, out);
      }
    }

    private void slice() throws IOException, Fatal {
      long start = BaoArgs.number(a.at(0));
      long count = BaoArgs.number(a.at(1));
      Path in = path(a.at(2));
      Path ob = a.outboard == null ? null : path(a.outboard);
      if (in == null || (a.outboard != null && ob == null)) {
        throw new Fatal("input must be a real file");
      }
      Path outName = path(a.at(3));
      std.refuse(outName, ob == null ? new Path[] {in} : new Path[] {in, ob});
      try (FileChannel c = FileChannel.open(in, StandardOpenOption.READ);
          BaoOutput out = BaoOutput.open(outName, stdout)) {
        if (ob != null) {
          try (FileChannel o = FileChannel.open(ob, StandardOpenOption.READ)) {
            bao.sliceOutboard(c, o, start, count, out.stream());
          }
        } else {
          bao.slice(c, start, count, out.stream());
        }
        out.finish();
      }
    }

    private void decodeSlice() throws IOException, Fatal {
      byte[] hash = parseHash(a.at(0));
      long start = BaoArgs.number(a.at(1));
      long count = BaoArgs.number(a.at(2));
      Path in = path(a.at(3));
      Path outName = path(a.at(4));
      std.refuse(outName, in);
      try (InputStream s = bao.sliceDecoder(hash, in == null ? stdin : Files.newInputStream(in), start, count);
          BaoOutput out = BaoOutput.open(outName, stdout)) {
        copyOut(s, Long.MAX_VALUE, out);
      }
    }

    /**
     * Copies verified bytes out, then puts a file output in place. A reader of stdout that goes
     * away (head -c) ends the copy quietly, as the official tool's does; any other failure is
     * reported, and a file output is then left as it was.
     */
    private void copyOut(InputStream in, long limit, BaoOutput out) throws IOException {
      byte[] buf = new byte[1 << 16];
      long left = limit;
      int n;
      try {
        while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) >= 0) {
          out.stream().write(buf, 0, n);
          left -= n;
        }
        out.finish();
      } catch (IOException e) {
        if (!brokenPipe(e)) {
          throw e;
        }
      }
    }

    private static boolean brokenPipe(IOException e) {
      return e.getMessage() != null && e.getMessage().contains("Broken pipe");
    }
  }
}
