package io.github.blake3fast;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.AclEntry;
import java.nio.file.attribute.AclFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The operating system as the loader sees it: whose rules apply (Linux's or Windows'), its
 * environment, and how the owner and ACL of a file are read on Windows. The loader asks
 * {@link #current()} alone, so tests can put a Windows in its place ({@link #setForTest}) and
 * run the Windows decisions on Linux through the same code, with an environment and ACLs of
 * their own: no Windows JVM runs where this is built.
 */
final class HostOs {
  /** The owner and ACL of a path, and who this process runs as (Windows). */
  interface Acls {
    UserPrincipal owner(Path p) throws IOException;

    /** The ACL, or null where the file system keeps none (FAT, some shares). */
    List<AclEntry> acl(Path p) throws IOException;

    /** This process's user, or null when it cannot be looked up. */
    UserPrincipal me();
  }

  final boolean windows;
  /** The environment; null: the process's own. */
  private final Map<String, String> env;
  /** Null on Linux. */
  final Acls acls;

  private HostOs(boolean windows, Map<String, String> env, Acls acls) {
    this.windows = windows;
    this.env = env;
    this.acls = acls;
  }

  private static volatile HostOs current;

  static HostOs current() {
    HostOs os = current;
    if (os == null) {
      boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
      current = os = new HostOs(windows, null, windows ? new NioAcls() : null);
    }
    return os;
  }

  /** Tests: this OS from now on; null goes back to the real one. */
  static void setForTest(HostOs os) {
    current = os;
  }

  /** Tests: a Windows with this environment and these ACLs. */
  static HostOs windowsForTest(Map<String, String> env, Acls acls) {
    return new HostOs(true, env, acls);
  }

  String getenv(String name) {
    return env == null ? System.getenv(name) : env.get(name);
  }

  /** What the JDK says of a real Windows file system. */
  private static final class NioAcls implements Acls {
    @Override
    public UserPrincipal owner(Path p) throws IOException {
      return Files.getOwner(p, LinkOption.NOFOLLOW_LINKS);
    }

    @Override
    public List<AclEntry> acl(Path p) throws IOException {
      AclFileAttributeView view = Files.getFileAttributeView(p, AclFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
      return view == null ? null : view.getAcl();
    }

    @Override
    public UserPrincipal me() {
      try {
        return FileSystems.getDefault().getUserPrincipalLookupService()
            .lookupPrincipalByName(System.getProperty("user.name", ""));
      } catch (IOException | RuntimeException e) {
        return null;
      }
    }
  }
}
