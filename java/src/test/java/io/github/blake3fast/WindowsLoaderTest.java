package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.AclEntry;
import java.nio.file.attribute.AclEntryFlag;
import java.nio.file.attribute.AclEntryPermission;
import java.nio.file.attribute.AclEntryType;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loader's Windows rules, decided by the same code a Windows JVM runs, on Linux: HostOs is
 * set to a Windows whose environment and ACLs the test writes (no Windows JVM runs here). What
 * the real NTFS calls return is not exercised; the decisions taken on them are.
 */
class WindowsLoaderTest {
  @TempDir
  Path tmp;

  /** Principals compare by name, as the JDK's Windows ones compare by SID. */
  private static final class Who implements UserPrincipal {
    private final String name;

    Who(String name) {
      this.name = name;
    }

    @Override
    public String getName() {
      return name;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Who && ((Who) o).name.equals(name);
    }

    @Override
    public int hashCode() {
      return name.hashCode();
    }
  }

  private static final Who ALICE = new Who("PC\\alice");
  private static final Who MALLORY = new Who("PC\\mallory");
  private static final Who SYSTEM = new Who("NT AUTHORITY\\SYSTEM");
  private static final Who ADMINS = new Who("BUILTIN\\Administrators");
  private static final Who EVERYONE = new Who("Everyone");

  private static AclEntry allow(Who who, AclEntryPermission... rights) {
    return AclEntry.newBuilder().setType(AclEntryType.ALLOW).setPrincipal(who).setPermissions(rights).build();
  }

  private static final AclEntryPermission[] FULL = AclEntryPermission.values();

  /** ACLs by path; a path not listed is alice's, with only alice, SYSTEM and Administrators. */
  private static final class Acls implements HostOs.Acls {
    final Map<Path, UserPrincipal> owners = new HashMap<>();
    final Map<Path, List<AclEntry>> acls = new HashMap<>();

    Acls() {
      // The profile: the principals that may write it are trusted along with the user.
      acls.put(Paths.get(System.getProperty("user.home")), List.of(allow(ALICE, FULL), allow(SYSTEM, FULL), allow(ADMINS, FULL)));
    }

    @Override
    public UserPrincipal owner(Path p) {
      return owners.getOrDefault(p, ALICE);
    }

    @Override
    public List<AclEntry> acl(Path p) {
      return acls.containsKey(p) ? acls.get(p) : List.of(allow(ALICE, FULL), allow(SYSTEM, FULL));
    }

    @Override
    public UserPrincipal me() {
      return ALICE;
    }
  }

  private final Acls acls = new Acls();
  private final byte[] lib = "MZ not really a DLL, the extraction rules do not look inside".getBytes();

  private void windows(Map<String, String> env) {
    HostOs.setForTest(HostOs.windowsForTest(env, acls));
  }

  @AfterEach
  void realOs() {
    HostOs.setForTest(null);
  }

  private Path extract(Path dir) throws Refusal {
    BundledLibrary b = BundledLibrary.forTest(lib);
    return ExtractionDir.extract(b, dir, ExtractionDir.fileName(b));
  }

  @Test
  void extractsToLocalAppDataThenTheTemporaryDirectory() throws Exception {
    Path local = tmp.resolve("Local");
    windows(Map.of("LOCALAPPDATA", local.toString()));
    String user = System.getProperty("user.name").replaceAll("[^A-Za-z0-9._-]", "_");
    Path temp = Paths.get(System.getProperty("java.io.tmpdir")).resolve("blake3-fast-" + user).toAbsolutePath().normalize();
    assertEquals(List.of(local.resolve("blake3-fast"), temp), ExtractionDir.locations(null));
    windows(Map.of());
    assertEquals(List.of(temp), ExtractionDir.locations(null), "no LOCALAPPDATA: the temporary directory alone");
    windows(Map.of("LOCALAPPDATA", "AppData\\Local"));
    assertEquals(List.of(temp), ExtractionDir.locations(null), "a relative LOCALAPPDATA is no location");
    assertEquals(List.of(tmp), ExtractionDir.locations(tmp.toString()), "-Dblake3.native.dir alone, as on Linux");
  }

  @Test
  void theDllIsNamedByContentWithoutLibPrefix() {
    windows(Map.of());
    String name = ExtractionDir.fileName(BundledLibrary.forTest(lib));
    assertTrue(name.matches("blake3fast-[0-9a-f]{16}\\.dll"), name);
    HostOs.setForTest(null);
    assertTrue(ExtractionDir.fileName(BundledLibrary.forTest(lib)).matches("libblake3fast-[0-9a-f]{16}\\.so"));
  }

  @Test
  void aDirectoryOnlyTheUserAndTheProfilesWritersControlIsUsedAndTheDllReused() throws Exception {
    windows(Map.of());
    Path dir = tmp.resolve("ok");
    Files.createDirectories(dir);
    // Administrators may write the profile, so full control for them is no reason to refuse;
    // reading for everyone is none either.
    acls.acls.put(dir, List.of(allow(ALICE, FULL), allow(ADMINS, FULL), allow(EVERYONE, AclEntryPermission.READ_DATA)));
    Path file = extract(dir);
    assertArrayEquals(lib, Files.readAllBytes(file));
    Object key = Files.readAttributes(file, "basic:fileKey").get("fileKey");
    long written = Files.getLastModifiedTime(file).toMillis();
    Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(written - 60_000));
    assertEquals(file, extract(dir), "the same name");
    assertEquals(key, Files.readAttributes(file, "basic:fileKey").get("fileKey"), "reused, not replaced");
    assertEquals(written - 60_000, Files.getLastModifiedTime(file).toMillis(), "reused, not rewritten");
  }

  @Test
  void aDirectoryOthersCanChangeIsRefusedAsUnsafe() throws Exception {
    windows(Map.of());
    Path dir = tmp.resolve("shared");
    Files.createDirectories(dir);
    acls.acls.put(dir, List.of(allow(ALICE, FULL), allow(EVERYONE, AclEntryPermission.READ_DATA, AclEntryPermission.WRITE_DATA)));
    Refusal r = assertThrows(Refusal.class, () -> extract(dir));
    assertTrue(r.unsafe && r.elsewhere, r.getMessage());
    assertTrue(r.getMessage().contains("Everyone"), r.getMessage());
    assertFalse(Files.list(dir).findAny().isPresent(), "nothing written there");
  }

  @Test
  void inheritOnlyAndDenyEntriesDoNotMakeADirectoryUnsafe() throws Exception {
    windows(Map.of());
    Path dir = tmp.resolve("inherit");
    Files.createDirectories(dir);
    AclEntry inheritOnly = AclEntry.newBuilder().setType(AclEntryType.ALLOW).setPrincipal(EVERYONE)
        .setPermissions(FULL).setFlags(AclEntryFlag.INHERIT_ONLY, AclEntryFlag.FILE_INHERIT).build();
    AclEntry deny = AclEntry.newBuilder().setType(AclEntryType.DENY).setPrincipal(MALLORY).setPermissions(FULL).build();
    acls.acls.put(dir, List.of(allow(ALICE, FULL), inheritOnly, deny));
    assertArrayEquals(lib, Files.readAllBytes(extract(dir)));
  }

  @Test
  void anotherOwnerAParentOthersMayDeleteFromOrNoAclIsRefused() throws Exception {
    windows(Map.of());
    Path owned = tmp.resolve("mallorys");
    Files.createDirectories(owned);
    acls.owners.put(owned, MALLORY);
    Refusal r = assertThrows(Refusal.class, () -> extract(owned));
    assertTrue(r.unsafe && r.getMessage().contains("mallory"), r.getMessage());

    Path parent = tmp.resolve("parent");
    Path child = parent.resolve("blake3-fast");
    Files.createDirectories(child);
    acls.acls.put(parent, List.of(allow(ALICE, FULL), allow(MALLORY, AclEntryPermission.DELETE_CHILD)));
    r = assertThrows(Refusal.class, () -> extract(child));
    assertTrue(r.unsafe && r.getMessage().contains(parent.toString()), "mallory could rename it away: " + r.getMessage());

    Path fat = tmp.resolve("fat");
    Files.createDirectories(fat);
    acls.acls.put(fat, null);
    r = assertThrows(Refusal.class, () -> extract(fat));
    assertTrue(r.unsafe && r.getMessage().contains("no ACL"), r.getMessage());
  }

  @Test
  void aFileOthersCanChangeIsRewrittenNotReused() throws Exception {
    windows(Map.of());
    Path dir = tmp.resolve("planted");
    Files.createDirectories(dir);
    String name = ExtractionDir.fileName(BundledLibrary.forTest(lib));
    Path planted = dir.resolve(name);
    Files.write(planted, lib); // the right bytes, but Everyone may change them
    acls.acls.put(planted, List.of(allow(ALICE, FULL), allow(EVERYONE, AclEntryPermission.WRITE_DATA)));
    Object before = Files.readAttributes(planted, "basic:fileKey").get("fileKey");
    Path file = extract(dir);
    assertEquals(planted, file);
    assertFalse(before.equals(Files.readAttributes(file, "basic:fileKey").get("fileKey")), "replaced by a file of ours");
  }

  @Test
  void aLoadedDllThatCannotBeReplacedGetsTheNextNameNeverARewrite() throws Exception {
    windows(Map.of());
    Path dir = tmp.resolve("busy");
    Files.createDirectories(dir);
    String name = ExtractionDir.fileName(BundledLibrary.forTest(lib));
    // A name that cannot be replaced, as Windows refuses to replace a DLL a process has loaded:
    // here a non-empty directory, which no rename replaces either.
    Path busy = dir.resolve(name);
    Files.createDirectories(busy.resolve("in-use"));
    Path file = extract(dir);
    assertEquals(name.replace(".dll", "-1.dll"), file.getFileName().toString());
    assertArrayEquals(lib, Files.readAllBytes(file));
    assertTrue(Files.isDirectory(busy.resolve("in-use")), "the busy name is left alone");
    assertEquals(file, extract(dir), "the next start reuses the second name");

    HostOs.setForTest(null); // Linux: no second name, the location is refused
    Path linux = tmp.resolve("busy-linux");
    Files.createDirectories(linux.resolve(ExtractionDir.fileName(BundledLibrary.forTest(lib))).resolve("in-use"));
    assertThrows(Refusal.class, () -> extract(linux));
  }

  @Test
  void peHeadersAreChecked() throws Exception {
    byte[] dll = pe(0x8664, 0x2022, 0x20b, 1024);
    ElfCheck.checkPe(dll, "dll"); // passes
    assertRefused(Arrays.copyOf(dll, 900), "truncated");
    assertRefused(pe(0x14c, 0x2022, 0x20b, 1024), "x86 (32-bit)");
    assertRefused(pe(0xaa64, 0x2022, 0x20b, 1024), "arm64");
    assertRefused(pe(0x8664, 0x0022, 0x20b, 1024), "not a DLL");
    assertRefused(pe(0x8664, 0x2022, 0x10b, 1024), "PE32+");
    byte[] elf = Arrays.copyOf(new byte[] {0x7f, 'E', 'L', 'F'}, 1024);
    assertRefused(elf, "no MZ header");
  }

  private static void assertRefused(byte[] b, String why) {
    Refusal r = assertThrows(Refusal.class, () -> ElfCheck.checkPe(b, "dll"));
    assertTrue(r.getMessage().contains(why), r.getMessage());
  }

  /** A minimal PE image: DOS header, PE header, optional header (240 bytes), one section at 512. */
  private static byte[] pe(int machine, int characteristics, int magic, int length) {
    byte[] b = new byte[length];
    b[0] = 'M';
    b[1] = 'Z';
    put16(b, 0x3c, 64);
    b[64] = 'P';
    b[65] = 'E';
    put16(b, 64 + 4, machine);
    put16(b, 64 + 6, 1);
    put16(b, 64 + 20, 240);
    put16(b, 64 + 22, characteristics);
    put16(b, 64 + 24, magic);
    int section = 64 + 24 + 240;
    put16(b, section + 16, 512); // size of raw data
    put16(b, section + 20, 512); // pointer to raw data
    return b;
  }

  private static void put16(byte[] b, int at, int v) {
    b[at] = (byte) v;
    b[at + 1] = (byte) (v >>> 8);
  }

  @Test
  void trustComesFromTheProfileNotFromNames() throws Exception {
    // A profile that Administrators may not write: then their full control of the directory
    // is a reason to refuse, whatever the group is called.
    acls.acls.put(Paths.get(System.getProperty("user.home")), List.of(allow(ALICE, FULL), allow(SYSTEM, FULL)));
    windows(Map.of());
    Path dir = tmp.resolve("admins");
    Files.createDirectories(dir);
    acls.acls.put(dir, new ArrayList<>(List.of(allow(ALICE, FULL), allow(ADMINS, Set.of(AclEntryPermission.WRITE_DATA).toArray(new AclEntryPermission[0])))));
    Refusal r = assertThrows(Refusal.class, () -> extract(dir));
    assertTrue(r.getMessage().contains("Administrators"), r.getMessage());
  }
}
