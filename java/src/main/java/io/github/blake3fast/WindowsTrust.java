package io.github.blake3fast;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.AclEntry;
import java.nio.file.attribute.AclEntryFlag;
import java.nio.file.attribute.AclEntryPermission;
import java.nio.file.attribute.AclEntryType;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;

/**
 * What a safe place for the library is on Windows, where {@link TrustedPaths}' owner-and-mode
 * rules have no meaning: an NTFS owner and ACL.
 *
 * <p>Whom to trust: this user, and whoever owns the user's profile ({@code user.home}) or may
 * write it (normally SYSTEM and Administrators). These can already run code as this user, by
 * changing what the profile starts, so trusting them with the library adds nothing; and taking
 * them from the profile's own ACL rather than from account names keeps the rule working on
 * localized Windows, where "Administrators" is spelled otherwise.
 *
 * <p>The extraction directory must belong to one of them, and its ACL may let nobody else
 * create, change, rename or delete anything in it, or change its ACL or owner; its parent may
 * let nobody else delete or rename it (DELETE_CHILD, or its ACL). Entries that only pass on to
 * children (inherit-only) do not apply to the directory itself and are skipped; deny entries
 * only take away. Directories above the parent (the profile, C:\Users, the drive) are
 * Windows Setup's, and a user who cannot trust those cannot trust the JDK either. A file
 * system without ACLs (FAT, some shares) cannot say who may change it: refused. The check then
 * load window is the same as on Linux: the directory stays out of others' reach in between.
 */
final class WindowsTrust {
  /** Rights over a directory's contents or the directory that only the trusted may hold. */
  private static final AclEntryPermission[] CHANGE = {AclEntryPermission.WRITE_DATA, AclEntryPermission.APPEND_DATA,
      AclEntryPermission.DELETE_CHILD, AclEntryPermission.DELETE, AclEntryPermission.WRITE_ACL,
      AclEntryPermission.WRITE_OWNER, AclEntryPermission.WRITE_NAMED_ATTRS, AclEntryPermission.WRITE_ATTRIBUTES};
  /** Rights over the parent that would let someone rename or remove the directory. */
  private static final AclEntryPermission[] REMOVE = {AclEntryPermission.DELETE_CHILD, AclEntryPermission.DELETE,
      AclEntryPermission.WRITE_ACL, AclEntryPermission.WRITE_OWNER};

  private final HostOs.Acls acls;
  private final List<UserPrincipal> trusted = new ArrayList<>();

  WindowsTrust(HostOs os) {
    this.acls = os.acls;
    UserPrincipal me = acls.me();
    if (me != null) {
      trusted.add(me);
    }
    String home = System.getProperty("user.home");
    try {
      Path profile = Paths.get(home);
      addTrusted(acls.owner(profile));
      List<AclEntry> acl = acls.acl(profile);
      if (acl != null) {
        for (AclEntry e : acl) {
          if (applies(e) && grantsAny(e, CHANGE)) {
            addTrusted(e.principal());
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // no profile to learn from: this user alone is trusted
    }
  }

  private void addTrusted(UserPrincipal p) {
    if (p != null && !trusted.contains(p)) {
      trusted.add(p);
    }
  }

  /** The real path of dir, created when missing; refused unless only the trusted can change it. */
  Path privateDirectory(Path dir) throws IOException, TrustedPaths.Untrusted {
    Path abs = dir.toAbsolutePath().normalize();
    // Created with the ACL it inherits: below %LOCALAPPDATA% the profile's, the user's own.
    Files.createDirectories(abs);
    Path real = abs.toRealPath();
    if (!Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS)) {
      throw new TrustedPaths.Untrusted(real + " is not a directory");
    }
    check(real, CHANGE, true);
    if (real.getParent() != null) {
      check(real.getParent(), REMOVE, false);
    }
    return real;
  }

  /** Whether a file found in a checked directory is a regular file only the trusted can change. */
  boolean ownFile(Path file) {
    try {
      if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
        return false;
      }
      check(file, CHANGE, true);
      return true;
    } catch (IOException | TrustedPaths.Untrusted | RuntimeException e) {
      return false;
    }
  }

  private void check(Path p, AclEntryPermission[] forbidden, boolean owner) throws IOException, TrustedPaths.Untrusted {
    if (owner) {
      UserPrincipal o = acls.owner(p);
      if (!trusted.contains(o)) {
        throw new TrustedPaths.Untrusted(p + " is owned by " + (o == null ? "nobody" : o.getName())
            + ", not by this user, nor by whoever may change the user profile");
      }
    }
    List<AclEntry> acl = acls.acl(p);
    if (acl == null) {
      throw new TrustedPaths.Untrusted(p + " keeps no ACL (FAT or a share?): who may change it cannot be told");
    }
    for (AclEntry e : acl) {
      if (applies(e) && !trusted.contains(e.principal()) && grantsAny(e, forbidden)) {
        throw new TrustedPaths.Untrusted(p + " lets " + e.principal().getName() + " change it (" + e.permissions() + ")");
      }
    }
  }

  /** An allow entry that applies to the object itself. */
  private static boolean applies(AclEntry e) {
    return e.type() == AclEntryType.ALLOW && !e.flags().contains(AclEntryFlag.INHERIT_ONLY);
  }

  private static boolean grantsAny(AclEntry e, AclEntryPermission[] rights) {
    for (AclEntryPermission r : rights) {
      if (e.permissions().contains(r)) {
        return true;
      }
    }
    return false;
  }
}
