package io.github.blake3fast;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes the library into a directory {@link ExtractionDir} checked: whole, synced, under a
 * temporary name, then renamed into place, so that no JVM ever loads a partial file; sweeps the
 * temporary files of crashed JVMs; says why a write failed. A class of its own because a start
 * that finds its library already extracted never needs it (bench/notes/startup.md).
 */
final class LibraryWriter {
  private LibraryWriter() {}

  /** A temporary file this old is left over from a crashed JVM: no writer takes that long. */
  private static final long STALE_TEMP_MILLIS = 10 * 60 * 1000L;

  /** dir/name holding lib, written under a temporary name and renamed over whatever was there. */
  static void install(Path dir, String name, byte[] lib) throws IOException {
    sweep(dir);
    Path file = dir.resolve(name);
    Path tmp = writeTemp(dir, name, lib);
    try {
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** A new file dir/name.NNN.tmp holding lib, on disk (fsync) before it is renamed or loaded. */
  static Path writeTemp(Path dir, String name, byte[] lib) throws IOException {
    // Set.of, not EnumSet (nor PosixFilePermissions.fromString, which makes one): from JDK 18 the
    // first EnumSet of an enum reads its constants by reflection, which spins classes.
    Set<StandardOpenOption> newFile = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    // rw------- while it is written, as Files.createTempFile makes it; rw-r--r-- once complete.
    FileAttribute<Set<PosixFilePermission>> ownerOnly = PosixFilePermissions.asFileAttribute(
        Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
    // Windows has no POSIX modes: the file inherits the private directory's ACL.
    boolean posix = !HostOs.current().windows;
    Path tmp = null;
    FileChannel ch = null;
    // Not Files.createTempFile: its random name comes from SecureRandom, whose first use
    // initialises the JCA providers (milliseconds of a first start, bench/notes/startup.md).
    // The directory is private, so the name needs to be unique, not unguessable: the clock,
    // and the exclusive create tries again on the rare clash with another JVM.
    for (int attempt = 0; ch == null; attempt++) {
      tmp = dir.resolve(name + "." + Long.toHexString(System.nanoTime()) + "-" + attempt + ".tmp");
      try {
        ch = posix ? FileChannel.open(tmp, newFile, ownerOnly) : FileChannel.open(tmp, newFile);
      } catch (FileAlreadyExistsException e) {
        if (attempt >= 100) {
          throw e;
        }
      }
    }
    boolean ok = false;
    try {
      try (FileChannel c = ch) {
        ByteBuffer b = ByteBuffer.wrap(lib);
        while (b.hasRemaining()) {
          c.write(b);
        }
        c.force(true);
      }
      if (posix) {
        Files.setPosixFilePermissions(tmp, Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
          PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ));
      }
      ok = true;
      return tmp;
    } finally {
      if (!ok) {
        deleteQuietly(tmp);
      }
    }
  }

  /**
   * Removes temporary files a crashed JVM left behind. Listed by File.list and the names
   * compared by hand: a glob compiles to a regular expression, and a DirectoryStream spins a
   * lambda on recent JDKs, both at a start that extracts.
   */
  private static void sweep(Path dir) {
    long old = System.currentTimeMillis() - STALE_TEMP_MILLIS;
    String prefix = ExtractionDir.prefix();
    String[] names;
    try {
      names = dir.toFile().list();
    } catch (RuntimeException e) {
      return; // sweeping is a courtesy
    }
    if (names == null) {
      return;
    }
    for (String n : names) {
      if (!n.startsWith(prefix) || !n.endsWith(".tmp")) {
        continue;
      }
      Path p = dir.resolve(n);
      try {
        if (Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toMillis() < old) {
          Files.deleteIfExists(p);
        }
      } catch (IOException | RuntimeException ignored) {
        // another JVM swept it first, or it is not ours to remove
      }
    }
  }

  static void deleteQuietly(Path p) {
    if (p == null) {
      return;
    }
    try {
      Files.deleteIfExists(p);
    } catch (IOException | RuntimeException e) {
      p.toFile().deleteOnExit();
    }
  }

  static String writeFailure(IOException e, Path dir) {
    String reason = e instanceof FileSystemException ? ((FileSystemException) e).getReason() : e.getMessage();
    if (reason != null && reason.contains("Read-only file system")) {
      return "read-only " + dir;
    }
    if (reason != null && reason.contains("No space left")) {
      return "disk full " + dir;
    }
    if (e instanceof AccessDeniedException) {
      return "not writable " + dir;
    }
    return "cannot write " + dir + " (" + e + ")";
  }
}
