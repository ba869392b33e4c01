package io.github.blake3fast.cli;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * The b3sum command: prints or checks BLAKE3 hashes of files or standard input. A drop-in
 * replacement for the official b3sum: the same flags, output, messages and exit statuses as
 * Debian's b3sum 1.2.0, plus {@code --tag} and {@code --seek} from newer official versions.
 */
public final class B3sum {
  private B3sum() {}

  public static void main(String[] args) {
    quietLibraryLogging();
    // Not System.out: a PrintStream swallows write errors, and a lost output must not succeed.
    // Out buffers and flushes itself.
    int status = run(args, RawArgs.ofProcess(args.length), new FileInputStream(FileDescriptor.in),
        new FileOutputStream(FileDescriptor.out), new FileOutputStream(FileDescriptor.err));
    // Status 0 returns: the JVM ends with main, every thread the library starts being a daemon.
    // From JDK 21, System.exit initialises the logging framework for its own log record, which
    // costs a small file's whole hashing (bench/notes/startup.md).
    if (status != 0) {
      System.exit(status);
    }
  }

  /**
   * Keeps the library's log records (say, "using the Java engine") off stderr, which must be
   * what the official tool prints and nothing else: an empty logging configuration has no
   * handler. Setting the property costs nothing; it is read only if something logs. A logging
   * configuration given on the command line wins. ({@code -V} names the engine instead.)
   */
  private static void quietLibraryLogging() {
    if (System.getProperty("java.util.logging.config.file") == null
        && System.getProperty("java.util.logging.config.class") == null
        && new java.io.File("/dev/null").canRead()) {
      System.setProperty("java.util.logging.config.file", "/dev/null");
    }
  }

  /**
   * Runs b3sum with these arguments and streams and returns its exit status. Nothing is closed.
   * An {@code IOException} from {@code stdout} ends the run with a message on {@code stderr}
   * and status {@value #OUTPUT_LOST} (a {@link PrintStream} is asked through
   * {@link PrintStream#checkError}, which cannot say why).
   */
  public static int run(String[] args, InputStream stdin, OutputStream stdout, OutputStream stderr) {
    return run(args, RawArgs.NONE, stdin, stdout, stderr);
  }

  /** As {@link #run(String[], InputStream, OutputStream, OutputStream)}, the words' bytes known. */
  static int run(String[] args, RawArgs raw, InputStream stdin, OutputStream stdout, OutputStream stderr) {
    Out out = new Out(stdout, stderr);
    try {
      int status = new B3sum.Run(stdin, out, raw).run(args);
      out.flushAll();
      return status;
    } catch (Out.Lost e) {
      out.error("failed printing to stdout: " + OsErrors.describe(e.reason()));
      return OUTPUT_LOST;
    }
  }

  /**
   * The status when printing to stdout fails: the official tool panics then, and 101 is the
   * status of a Rust panic. Its message is the panic's: {@code failed printing to stdout: ...}.
   */
  static final int OUTPUT_LOST = 101;

  /**
   * The status and message for a {@code --derive-key} context that is not UTF-8: the official
   * tool panics (101) in its argument parser's {@code value_of}, with this message.
   */
  static final int NOT_UTF8 = 101;
  static final String NOT_UTF8_MESSAGE = "unexpected invalid UTF-8 code point";

  /** More threads than this on one file cannot help; the official tool would start them all. */
  private static final int MAX_THREADS = 256;

  /** One invocation's state. */
  private static final class Run {
    private final InputStream stdin;
    private final Out out;
    private final RawArgs raw;

    Run(InputStream stdin, Out out, RawArgs raw) {
      this.stdin = stdin;
      this.out = out;
      this.raw = raw;
    }

    int run(String[] args) {
      Options o;
      try {
        o = ArgParser.parse(args);
      } catch (ArgParser.Exit e) {
        if (e.status == 0) {
          out.print(e.text);
        } else {
          out.errorRaw(e.text);
        }
        return e.status;
      }
      if (o.raw && o.files.size() > 1) {
        return fatal("Only one filename can be provided when using --raw");
      }
      byte[] key = null;
      if (o.keyed) {
        try {
          key = readKey();
        } catch (IOException e) {
          return fatal(OsErrors.describe(e));
        } catch (Fatal e) {
          return fatal(e.getMessage());
        }
      }
      // Where the official tool reads the context: after the key, before the thread count.
      String context = null;
      if (o.deriveKey != null) {
        context = ContextArg.resolve(o.deriveKey, o.deriveKeyWord, args[o.deriveKeyWord], raw);
        if (context == null) {
          out.error(NOT_UTF8_MESSAGE);
          return NOT_UTF8;
        }
      }
      int threads;
      try {
        threads = threads(o);
      } catch (Unsigned.BadNumber e) {
        out.errorRaw("Error: Failed to parse num threads.\n\nCaused by:\n    " + e.getMessage() + "\n");
        return 1;
      }
      Inputs inputs = new Inputs(stdin, key, context, threads);
      boolean failed = false;
      if (o.check) {
        long seek = 0;
        if (o.seek != null) {
          try {
            seek = seekOffset(o.seek);
          } catch (Inputs.Failure e) {
            return fatal(e.getMessage());
          }
        }
        Checker checker = new Checker(inputs, out, stdin, o.quiet, seek);
        for (String f : o.files) {
          try {
            failed |= !checker.checkFile(f);
          } catch (Fatal e) {
            return fatal(e.getMessage());
          }
        }
      } else {
        for (String f : o.files) {
          try {
            hashOne(f, o, inputs);
          } catch (Inputs.Failure e) {
            failed = true;
            out.error(f + ": " + e.getMessage());
          }
        }
      }
      return failed ? 1 : 0;
    }

    private int fatal(String message) {
      out.errorRaw("Error: " + message + "\n");
      return 1;
    }

    private void hashOne(String name, Options o, Inputs inputs) throws Inputs.Failure {
      long seek = o.seek == null ? 0 : seekOffset(o.seek);
      long want;
      try {
        want = o.length == null ? 32 : Unsigned.parse(o.length);
      } catch (Unsigned.BadNumber e) {
        want = -1; // reported below, after the input was read, as the official tool does
      }
      HashOutput hash = inputs.hash(name, seek, want);
      if (o.raw) {
        long len = length(o, seek);
        try {
          Emit.raw(hash, len, out);
          out.flushAll();
        } catch (Out.Lost e) {
          // The official tool writes raw output with write_all and reports its failure as this
          // input's: "b3sum: NAME: No space left on device (os error 28)", status 1.
          throw new Inputs.Failure(OsErrors.describe(e.reason()));
        }
        return;
      }
      if (o.noNames) {
        Emit.hex(hash, length(o, seek), out);
        out.print("\n");
        return;
      }
      boolean escaped = Names.needsEscape(name);
      String shown = Names.escape(name);
      if (escaped) {
        out.print("\\"); // before the length is parsed: 1.2.0 prints it even when that fails
      }
      long len = length(o, seek);
      if (o.tag) {
        out.print("BLAKE3 (");
        out.print(shown);
        out.print(") = ");
        Emit.hex(hash, len, out);
        out.print("\n");
      } else {
        Emit.hex(hash, len, out);
        out.print("  ");
        out.print(shown);
        out.print("\n");
      }
    }

    /** The output length, parsed for each input as the official tool does. */
    private static long length(Options o, long seek) throws Inputs.Failure {
      if (o.length == null) {
        return 32;
      }
      long len;
      try {
        len = Unsigned.parse(o.length);
      } catch (Unsigned.BadNumber e) {
        throw new Inputs.Failure("Failed to parse length.");
      }
      if (seek != 0 && Long.compareUnsigned(len, Long.MAX_VALUE - seek) > 0) {
        // The library's output positions end at 2^63-1; from 0 no run gets that far.
        throw new Inputs.Failure("Output beyond byte 2^63-1 is not supported.");
      }
      return len;
    }

    private static long seekOffset(String s) throws Inputs.Failure {
      long v;
      try {
        v = Unsigned.parse(s);
      } catch (Unsigned.BadNumber e) {
        throw new Inputs.Failure("Failed to parse seek.");
      }
      if (v < 0) {
        throw new Inputs.Failure("Seek offsets beyond 2^63-1 are not supported.");
      }
      return v;
    }

    /** Threads per large file: --no-mmap 1, else --num-threads, else RAYON_NUM_THREADS, else 0 (all). */
    private static int threads(Options o) throws Unsigned.BadNumber {
      long n = 0;
      if (o.numThreads != null) {
        n = Unsigned.parse(o.numThreads);
      }
      if (n == 0) {
        String env = System.getenv("RAYON_NUM_THREADS");
        if (env != null) {
          try {
            n = Unsigned.parse(env);
          } catch (Unsigned.BadNumber e) {
            n = 0;
          }
        }
      }
      if (o.noMmap) {
        return 1;
      }
      if (n == 0) {
        return 0;
      }
      return Long.compareUnsigned(n, MAX_THREADS) > 0 ? MAX_THREADS : (int) n;
    }

    /** Exactly 32 bytes from stdin, read to its end (up to one byte more). */
    private byte[] readKey() throws IOException, Fatal {
      byte[] buf = new byte[33];
      int n = 0;
      while (n < buf.length) {
        int r = stdin.read(buf, n, buf.length - n);
        if (r < 0) {
          break;
        }
        n += r;
      }
      if (n < 32) {
        throw new Fatal("expected 32 key bytes from stdin, found " + n);
      }
      if (n > 32) {
        throw new Fatal("read more than 32 key bytes from stdin");
      }
      return java.util.Arrays.copyOf(buf, 32);
    }
  }
}
