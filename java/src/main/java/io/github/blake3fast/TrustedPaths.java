package io.github.blake3fast;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;

/**
 * Decides whether a place can be trusted to hold the same library from the loader's check until
 * {@code System.load} opens it, and hands back the path to use for both.
 *
 * <p>Why paths and not a descriptor: {@code System.load} takes a name and the JDK (17 to 25)
 * canonicalizes it first ({@code File.getCanonicalPath}, that is realpath), which turns
 * {@code /proc/self/fd/N} back into the directory path it came from; checking an open descriptor
 * and then loading by name would leave the window open. So the rule is OpenSSH's: a path is
 * trusted when nobody but root and this user can change what it names. Its real path (symbolic
 * links and {@code ..} resolved) is checked component by component from {@code /}, each with
 * lstat: every directory on it belongs to root or this user and no one else may write it, unless
 * it is sticky (as {@code /tmp}), where others may add entries but cannot rename or remove ours;
 * the last directory may not be writable by others at all. Checked from the top down, each
 * component sits in a directory already shown to be out of others' reach, so none of them can be
 * swapped after it was checked. The loader then writes, compares and loads through that real
 * path only, never again through the name it was given; the JDK's own realpath of it yields the
 * same path, and a file found there is reused only when it is root's or ours and others cannot
 * write it ({@link #ownFile}).
 *
 * <p>The name as given is walked the same way before it is resolved: every directory it passes
 * through must pass the same test, and every symbolic link on it must be root's or this user's.
 * Otherwise someone who can write there could point the name at another (safe) place of their
 * choosing while it is resolved, and choose where we write. {@code ..} is taken out of the given
 * name lexically first (the name walked is the name then resolved), and the real path has none.
 * Mounts are no gap: only root can mount over a path in this process's mount
 * namespace, and a bind mount shows the same directory, with the same owner and mode, that the
 * checks look at.
 *
 * <p>An explicit library ({@code -Dblake3.native.path}) is a file the user chose, owners and all,
 * so owners are not restricted there; no one else may change it: the file and every directory on
 * its name and real path must not be writable by group or others (sticky directories excepted).
 * It must be a regular file, which keeps FIFOs (an open that blocks) and devices (endless reads)
 * out; its type is read only once its directories are shown out of others' reach, so it stays
 * what it was seen as until it is opened.
 *
 * <p>When this process's uid cannot be read ({@code /proc} missing), owners are not checked,
 * only modes.
 */
final class TrustedPaths {
  /** Why a path is not trusted; the message completes "unsafe PATH (...)". */
  static final class Untrusted extends Exception {
    private static final long serialVersionUID = 1L;

    Untrusted(String reason) {
      super(reason, null, false, false);
    }
  }

  private static final int S_IFMT = 0170000;
  private static final int S_IFDIR = 0040000;
  private static final int S_IFREG = 0100000;
  private static final int S_IFLNK = 0120000;
  private static final int S_ISVTX = 01000;
  private static final int GROUP_OR_OTHER_WRITE = 022;

  /** A private directory made below a shared (sticky) one is named this, then the uid. */
  static final String SHARED_SUBDIR_PREFIX = "blake3-fast-";

  /** The effective uid of this process, or -1 when unknown. */
  private final int me;

  TrustedPaths(int me) {
    this.me = me;
  }

  /**
   * The real path of a directory for this user's files: {@code dir}, created (rwxr-xr-x) when
   * it is missing and tightened when it is ours, not sticky, and others may write it; or, when
   * {@code dir} is a sticky directory others may write, a private {@code blake3-fast-<uid>} below
   * it. Refused when anyone but root and this user could change it or the directories above it.
   */
  Path privateDirectory(Path dir) throws IOException, Untrusted {
    Path abs = dir.toAbsolutePath().normalize();
    checkRoute(abs, false);
    Path existing = abs;
    while (!Files.exists(existing)) {
      existing = existing.getParent(); // "/" always exists
    }
    if (!existing.equals(abs)) {
      // Create only inside a directory others cannot change, so nothing of theirs is reused.
      Path base = existing.toRealPath();
      if (!Files.isDirectory(base, LinkOption.NOFOLLOW_LINKS)) {
        throw new NotDirectoryException(existing.toString()); // cannot be created: said as such
      }
      checkAncestors(base, false);
      // rwxr-xr-x, as a Set.of: fromString makes an EnumSet, whose first use reads the enum's
      // constants by reflection on JDK 18 and later, spinning classes at a first start.
      Files.createDirectories(base.resolve(existing.relativize(abs)), PosixFilePermissions.asFileAttribute(Set.of(
          PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE,
          PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_EXECUTE)));
    }
    Path real = abs.toRealPath();
    if (real.getParent() != null) {
      checkAncestors(real.getParent(), false);
    }
    Map<String, Object> a = attributes(real);
    int mode = (Integer) a.get("mode");
    int owner = (Integer) a.get("uid");
    if ((mode & S_IFMT) != S_IFDIR) {
      throw new Untrusted(real + " is " + kind(mode) + ", not a directory");
    }
    if (!ownerTrusted(owner)) {
      throw new Untrusted("owned by uid " + owner + ", this process runs as uid " + me);
    }
    if ((mode & GROUP_OR_OTHER_WRITE) != 0 && (mode & S_ISVTX) != 0) {
      // A sticky directory others may write (/tmp, a fresh tmpfs) is shared by design: changing
      // its mode would break every other user of it. Our files go into a private directory of
      // our own below it, as they do below java.io.tmpdir.
      return privateDirectory(real.resolve(SHARED_SUBDIR_PREFIX + (me < 0 ? "unknown" : Integer.toString(me))));
    }
    if ((mode & GROUP_OR_OTHER_WRITE) != 0) {
      if (owner != me) {
        throw new Untrusted("writable by others: use a directory only its owner can write");
      }
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(real, LinkOption.NOFOLLOW_LINKS);
      perms.remove(PosixFilePermission.GROUP_WRITE);
      perms.remove(PosixFilePermission.OTHERS_WRITE);
      try {
        Files.setPosixFilePermissions(real, perms);
      } catch (IOException e) {
        throw new Untrusted("writable by others: use a directory only its owner can write");
      }
    }
    return real;
  }

  /**
   * The real path of a library the user named: a regular file that no one but the owners of it
   * and of the directories above it can change. The message of a refusal is complete: "is a
   * FIFO, not a regular file" or "unsafe REALPATH (why)".
   */
  Path chosenFile(Path file) throws IOException, Untrusted {
    Path abs = file.toAbsolutePath().normalize();
    Path real;
    try {
      checkRoute(abs, true);
      real = abs.toRealPath();
      checkAncestors(real.getParent(), true);
    } catch (Untrusted u) {
      throw new Untrusted("unsafe " + abs + " (" + u.getMessage() + ")");
    }
    // Only now, with the directories out of others' reach, does the type stay what it is seen as.
    int mode = (Integer) attributes(real).get("mode");
    if ((mode & S_IFMT) != S_IFREG) {
      throw new Untrusted("is " + kind(mode) + ", not a regular file");
    }
    if ((mode & GROUP_OR_OTHER_WRITE) != 0) {
      throw new Untrusted("unsafe " + abs + " (writable by group or others: they could replace the library)");
    }
    return real;
  }

  /**
   * Whether {@code file} (in a trusted directory) is a regular file that only root or this user
   * can change: a file someone else left there while the directory was still open to them is
   * rewritten rather than reused.
   */
  boolean ownFile(Path file) {
    try {
      Map<String, Object> a = attributes(file);
      int mode = (Integer) a.get("mode");
      return (mode & S_IFMT) == S_IFREG && ownerTrusted((Integer) a.get("uid")) && (mode & GROUP_OR_OTHER_WRITE) == 0;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** Every directory from / down to {@code dir}, inclusive, seen as one above the final place. */
  private void checkAncestors(Path dir, boolean anyOwner) throws IOException, Untrusted {
    Path p = dir.getRoot();
    checkAncestor(p, anyOwner);
    for (Path name : dir) {
      p = p.resolve(name);
      checkAncestor(p, anyOwner);
    }
  }

  private void checkAncestor(Path p, boolean anyOwner) throws IOException, Untrusted {
    checkDirectory(p, attributes(p), anyOwner);
  }

  private void checkDirectory(Path p, Map<String, Object> a, boolean anyOwner) throws Untrusted {
    int mode = (Integer) a.get("mode");
    int owner = (Integer) a.get("uid");
    if ((mode & S_IFMT) != S_IFDIR) {
      throw new Untrusted(p + " is " + kind(mode) + ", not a directory");
    }
    if (!anyOwner && !ownerTrusted(owner)) {
      throw new Untrusted(p + " is owned by uid " + owner + ", this process runs as uid " + me);
    }
    if ((mode & GROUP_OR_OTHER_WRITE) != 0 && (mode & S_ISVTX) == 0) {
      throw new Untrusted(p + " may be changed by others: writable by group or others, without the sticky bit");
    }
  }

  /**
   * The name as given, before it is resolved: each directory it passes through (as resolved now)
   * must pass as one above the final place, so no one else can redirect the name while it is
   * resolved; and, unless {@code anyOwner}, each symbolic link on it must be root's or this user's,
   * since one planted by someone else would choose where we write. Stops at the first missing
   * component: the rest is still to be created.
   */
  private void checkRoute(Path abs, boolean anyOwner) throws IOException, Untrusted {
    Path p = abs.getRoot();
    checkAncestor(p, anyOwner);
    for (Path name : abs) {
      p = p.resolve(name);
      Map<String, Object> a;
      try {
        a = attributes(p);
      } catch (NoSuchFileException e) {
        return;
      }
      int owner = (Integer) a.get("uid");
      if (((Integer) a.get("mode") & S_IFMT) == S_IFLNK && !anyOwner && !ownerTrusted(owner)) {
        String link = p.equals(abs) ? "a link" : p + " is a link";
        throw new Untrusted(link + " owned by uid " + owner + ", this process runs as uid " + me);
      }
      if (p.equals(abs)) {
        return;
      }
      Map<String, Object> target;
      try {
        target = Files.readAttributes(p, "unix:mode,uid");
      } catch (NoSuchFileException e) {
        return; // a dangling link: creating the rest will fail and say so
      }
      if (((Integer) target.get("mode") & S_IFMT) != S_IFDIR) {
        return; // a file where a directory should be: the same
      }
      checkDirectory(p, target, anyOwner);
    }
  }

  private boolean ownerTrusted(int owner) {
    return me < 0 || owner == 0 || owner == me;
  }

  private static Map<String, Object> attributes(Path p) throws IOException {
    return Files.readAttributes(p, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
  }

  private static String kind(int mode) {
    switch (mode & S_IFMT) {
      case S_IFDIR:
        return "a directory";
      case S_IFREG:
        return "a regular file";
      case S_IFLNK:
        return "a symbolic link";
      case 0010000:
        return "a FIFO";
      case 0020000:
        return "a character device";
      case 0060000:
        return "a block device";
      case 0140000:
        return "a socket";
      default:
        return "file type " + Integer.toOctalString(mode & S_IFMT);
    }
  }
}
