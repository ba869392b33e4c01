package io.github.blake3fast.internal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A named output that appears whole or not at all. A regular file (or a name with nothing there
 * yet) is written under a temporary name in the same directory and renamed over the target by
 * {@link #commit}, an atomic replacement; closed without a commit (any failure), the temporary
 * file is deleted and the target is as it was. A device or FIFO cannot be replaced: it is
 * written in place, as a stream would be.
 *
 * <ul>
 *   <li>Links are followed: a symlink keeps pointing where it did, at the new content.
 *   <li>A file that existed keeps its permission bits, and its owner and group where this
 *       process may set them (root; otherwise the writer's, as with any editor that saves by
 *       renaming). Other hard links to it keep the old bytes: the name gets a new file.
 *   <li>The directory must be writable: a temporary file cannot be made elsewhere and renamed
 *       there.
 *   <li>Nothing is forced to disk ({@code fsync}): the guarantee covers failures of the process
 *       (errors, exceptions, interrupts, Ctrl-C); after a crash of the machine, what the
 *       rename shows is the file system's ordering of data and rename, as for {@code sed -i}.
 * </ul>
 *
 * <p><b>Internal: not API; may change or go in any release.</b> Public only so that the
 * library's own packages (Bao and its command line) share it.
 */
public final class FileOutput implements Closeable {
  /** How much of the target's name the temporary name repeats, so a leftover says whose it is. */
  private static final int NAME_CHARS = 32;

  private final Path target;
  /** Null when the target is written in place. */
  private final Path temp;
  private final FileChannel channel;
  /** Committed or abandoned: nothing more to do. */
  private boolean done;

  private FileOutput(Path target, Path temp, FileChannel channel) {
    this.target = target;
    this.temp = temp;
    this.channel = channel;
  }

  /**
   * Opens {@code output} for writing: a new temporary file beside it, or the device or FIFO
   * it names.
   *
   * @param output where the bytes go
   * @return the output; {@link #commit} it when complete, close it in any case
   * @throws IOException if the output is a directory, or the temporary file cannot be made
   */
  public static FileOutput open(Path output) throws IOException {
    BasicFileAttributes attrs = attributes(output);
    if (attrs != null && attrs.isDirectory()) {
      throw new FileSystemException(output.toString(), null, "Is a directory");
    }
    if (attrs != null && !attrs.isRegularFile()) {
      // A device, a FIFO, /dev/stdout on a pipe: no name to rename over, and no real path.
      return new FileOutput(output, null,
          FileChannel.open(output, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING));
    }
    Path target = attrs != null ? output.toRealPath() : notYetMade(output);
    Path dir = target.toAbsolutePath().getParent();
    String name = target.getFileName().toString();
    for (int attempt = 0; ; attempt++) {
      Path temp = dir.resolve("." + shortened(name) + "." + Long.toHexString(ThreadLocalRandom.current().nextLong())
          + ".tmp");
      FileChannel ch;
      try {
        // CREATE_NEW (O_EXCL): never a file, or a link, someone else put there.
        ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      } catch (FileAlreadyExistsException e) {
        if (attempt == 100) {
          throw e;
        }
        continue;
      } catch (FileSystemException e) {
        throw named(e, output);
      }
      ExitCleanup.add(temp);
      FileOutput out = new FileOutput(target, temp, ch);
      try {
        if (attrs != null) {
          keepOwnerAndPermissions(target, temp);
        }
        return out;
      } catch (IOException | RuntimeException e) {
        out.close();
        throw e;
      }
    }
  }

  /**
   * Where a write to {@code output}, which names no file yet, makes one: a link to nothing makes
   * its target, as open(2) does.
   */
  private static Path notYetMade(Path output) throws IOException {
    Path p = output;
    for (int hops = 0; Files.isSymbolicLink(p); hops++) {
      if (hops == 40) {
        throw new FileSystemException(output.toString(), null, "Too many levels of symbolic links");
      }
      p = p.resolveSibling(Files.readSymbolicLink(p));
    }
    return p;
  }

  /**
   * The failure to make the temporary file, as the caller's output's: a missing or read-only
   * directory is the output's problem, and the caller never saw the temporary name (kept in
   * the cause).
   */
  private static FileSystemException named(FileSystemException e, Path output) {
    String name = output.toString();
    FileSystemException n = e instanceof NoSuchFileException ? new NoSuchFileException(name, null, e.getReason())
        : e instanceof AccessDeniedException ? new AccessDeniedException(name, null, e.getReason())
        : new FileSystemException(name, null, e.getReason());
    n.initCause(e);
    return n;
  }

  /** What {@code p} reaches, links followed; null if nothing. */
  private static BasicFileAttributes attributes(Path p) {
    try {
      return Files.readAttributes(p, BasicFileAttributes.class);
    } catch (IOException e) {
      return null; // nothing there yet: making the temporary file reports a bad directory
    }
  }

  private static String shortened(String name) {
    return name.codePointCount(0, name.length()) <= NAME_CHARS ? name
        : name.substring(0, name.offsetByCodePoints(0, NAME_CHARS));
  }

  private static void keepOwnerAndPermissions(Path target, Path temp) throws IOException {
    PosixFileAttributeView view = Files.getFileAttributeView(temp, PosixFileAttributeView.class);
    if (view == null) {
      return; // not a POSIX file system: its defaults
    }
    PosixFileAttributes old = Files.readAttributes(target, PosixFileAttributes.class);
    PosixFileAttributes now = view.readAttributes();
    try {
      if (!old.group().equals(now.group())) {
        view.setGroup(old.group());
      }
      if (!old.owner().equals(now.owner())) {
        view.setOwner(old.owner());
      }
    } catch (IOException e) {
      // only root may give a file away: the new file is the writer's (documented)
    }
    view.setPermissions(old.permissions()); // after the owner: chown may clear bits
  }

  /**
   * The channel to write, by position or in sequence: the temporary file, or the device.
   *
   * @return the channel, closed by {@link #commit} or {@link #close}
   */
  public FileChannel channel() {
    return channel;
  }

  /**
   * Whether the output is a temporary file, which can be written by position, in any order;
   * false for a device or FIFO written in place, in sequence only.
   *
   * @return true for a temporary file
   */
  public boolean positional() {
    return temp != null;
  }

  /**
   * Moves the complete output into place (an atomic rename over the target); after this,
   * {@link #close} does nothing.
   *
   * @throws IOException if closing the file or the rename fails: the target is then as it was
   */
  public void commit() throws IOException {
    channel.close(); // a write the file system reports late (NFS) fails here, before the rename
    if (temp != null) {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
      ExitCleanup.forget(temp);
    }
    done = true;
  }

  /** Abandons the output unless committed: the temporary file is deleted. */
  @Override
  public void close() throws IOException {
    if (done) {
      return;
    }
    done = true;
    try {
      channel.close();
    } finally {
      if (temp != null) {
        Files.deleteIfExists(temp);
        ExitCleanup.forget(temp);
      }
    }
  }
}
