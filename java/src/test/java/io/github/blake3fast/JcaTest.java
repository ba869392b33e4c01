package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.InvalidParameterException;
import java.security.Key;
import java.security.MessageDigest;
import java.security.MessageDigestSpi;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.Security;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.MacSpi;
import javax.crypto.SecretKey;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.digests.Blake3Digest;
import org.bouncycastle.crypto.macs.Blake3Mac;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;

/**
 * The provider as JCA code meets it: its services and aliases, installed in {@link Security},
 * the {@code Mac}'s key checks and life cycle, and agreement with Bouncy Castle's
 * {@code Blake3Digest} and {@code Blake3Mac} on random inputs streamed in random pieces.
 */
class JcaTest {
  private static final Provider P = new Blake3Provider();

  private static SecretKeySpec key(byte[] k) {
    return new SecretKeySpec(k, "BLAKE3");
  }

  @Test
  void servicesAndAliases() throws Exception {
    assertEquals("BLAKE3Fast", P.getName());
    assertEquals(Blake3Provider.NAME, P.getName());
    Provider.Service md = P.getService("MessageDigest", "BLAKE3");
    assertNotNull(md);
    assertEquals("BLAKE3", md.getAlgorithm());
    for (String alias : List.of("BLAKE3-256", "blake3-256", "1.3.6.1.4.1.1722.12.2.3.8", "OID.1.3.6.1.4.1.1722.12.2.3.8")) {
      assertSame(md, P.getService("MessageDigest", alias), alias);
    }
    assertTrue(md.newInstance(null) instanceof MessageDigestSpi);
    assertThrows(InvalidParameterException.class, () -> md.newInstance("a parameter"));

    Provider.Service mac = P.getService("Mac", "BLAKE3");
    assertNotNull(mac);
    assertTrue(mac.newInstance(null) instanceof MacSpi);
    assertEquals("RAW", mac.getAttribute("SupportedKeyFormats"));
    assertTrue(mac.supportsParameter(key(new byte[32])));
    assertFalse(mac.supportsParameter(new NotRaw()), "Mac.init passes keys that are not RAW to other providers");
    assertNull(P.getService("Mac", "BLAKE3-256"), "Bouncy Castle has no such Mac name: none is made up");
    assertEquals(2, P.getServices().size(), P.getServices().toString());
  }

  @Test
  void installedInSecurity() throws Exception {
    assertThrows(NoSuchAlgorithmException.class, () -> MessageDigest.getInstance("BLAKE3"),
        "not installed yet (another test left it installed?)");
    Security.addProvider(new Blake3Provider());
    try {
      assertTrue(Arrays.stream(Security.getProviders()).anyMatch(p -> p.getName().equals("BLAKE3Fast")));
      Provider[] withMac = Security.getProviders("Mac.BLAKE3");
      assertNotNull(withMac);
      assertEquals("BLAKE3Fast", withMac[0].getName());
      assertTrue(Security.getAlgorithms("MessageDigest").contains("BLAKE3"));
      assertTrue(Security.getAlgorithms("Mac").contains("BLAKE3"));
      byte[] in = Vectors.input(3000);
      for (String name : List.of("BLAKE3", "BLAKE3-256", "1.3.6.1.4.1.1722.12.2.3.8")) {
        MessageDigest md = MessageDigest.getInstance(name);
        assertEquals("BLAKE3Fast", md.getProvider().getName(), name);
        assertArrayEquals(Blake3.hash(in), md.digest(in), name);
      }
      Mac mac = Mac.getInstance("BLAKE3");
      mac.init(key(Vectors.key()));
      assertEquals("BLAKE3Fast", mac.getProvider().getName());
      assertArrayEquals(Blake3.keyedHash(Vectors.key(), in), mac.doFinal(in));
      assertSame(Security.getProvider("BLAKE3Fast"), MessageDigest.getInstance("BLAKE3", "BLAKE3Fast").getProvider());
    } finally {
      Security.removeProvider("BLAKE3Fast");
    }
  }

  @Test
  void macMatchesTheOfficialKeyedVectors() throws Exception {
    Mac mac = Mac.getInstance("BLAKE3", P);
    assertEquals(32, mac.getMacLength());
    assertEquals("BLAKE3", mac.getAlgorithm());
    mac.init(key(Vectors.key()));
    for (Vectors.Case c : Vectors.officialFormat()) {
      byte[] tag = mac.doFinal(Vectors.input(c.inputLen));
      assertEquals(c.keyedHash.substring(0, 64), Blake3.toHex(tag), c.toString());
    }
  }

  /** The constant-time check JCA code makes: a tag verifies, and any change to it, the data or the key fails. */
  @Test
  void tagsVerifyWithMessageDigestIsEqual() throws Exception {
    Random rnd = new Random(7);
    byte[] k = new byte[32];
    rnd.nextBytes(k);
    byte[] data = new byte[1500];
    rnd.nextBytes(data);
    Mac mac = Mac.getInstance("BLAKE3", P);
    mac.init(key(k));
    byte[] tag = mac.doFinal(data);
    assertTrue(MessageDigest.isEqual(tag, mac.doFinal(data)));
    for (int bit = 0; bit < 8 * tag.length; bit += 7) {
      byte[] bad = tag.clone();
      bad[bit / 8] ^= (byte) (1 << (bit % 8));
      assertFalse(MessageDigest.isEqual(bad, mac.doFinal(data)), "tag bit " + bit);
    }
    assertFalse(MessageDigest.isEqual(Arrays.copyOf(tag, 31), mac.doFinal(data)), "a short tag");
    data[700] ^= 1;
    assertFalse(MessageDigest.isEqual(tag, mac.doFinal(data)), "changed data");
    data[700] ^= 1;
    k[31] ^= (byte) 0x80;
    mac.init(key(k));
    assertFalse(MessageDigest.isEqual(tag, mac.doFinal(data)), "changed key");
  }

  /** A SecretKey whose encoding is not raw bytes. */
  private static final class NotRaw implements SecretKey {
    private static final long serialVersionUID = 1L;

    @Override
    public String getAlgorithm() {
      return "BLAKE3";
    }

    @Override
    public String getFormat() {
      return "X.509";
    }

    @Override
    public byte[] getEncoded() {
      return new byte[32];
    }
  }

  @Test
  void macRefusesWrongKeysAndAnyParameters() throws Exception {
    Mac mac = Mac.getInstance("BLAKE3", P);
    assertThrows(IllegalStateException.class, () -> mac.update((byte) 1), "Mac's own check: no key yet");
    for (int len : new int[] {0, 1, 16, 31, 33, 64}) {
      SecretKey sized = new SecretKeySpec(new byte[1], "BLAKE3") {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] getEncoded() {
          return new byte[len];
        }
      };
      InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> mac.init(sized));
      assertEquals("BLAKE3 keys are 32 bytes, not " + len, e.getMessage());
    }
    // Any algorithm name: the bytes are the key.
    byte[] k = Vectors.key();
    for (String alg : List.of("BLAKE3", "RAW", "HmacSHA256", "AES")) {
      mac.init(new SecretKeySpec(k, alg));
      assertArrayEquals(Blake3.keyedHash(k, new byte[0]), mac.doFinal(), alg);
    }
    assertTrue(assertThrows(InvalidKeyException.class, () -> mac.init(new NotRaw())).getMessage().contains("RAW"));
    Key notSecret = new Key() {
      private static final long serialVersionUID = 1L;

      @Override
      public String getAlgorithm() {
        return "BLAKE3";
      }

      @Override
      public String getFormat() {
        return "RAW";
      }

      @Override
      public byte[] getEncoded() {
        return new byte[32];
      }
    };
    assertTrue(assertThrows(InvalidKeyException.class, () -> mac.init(notSecret)).getMessage().contains("SecretKey"));
    SecretKey hidden = new SecretKeySpec(k, "BLAKE3") {
      private static final long serialVersionUID = 1L;

      @Override
      public byte[] getEncoded() {
        return null;
      }
    };
    assertThrows(InvalidKeyException.class, () -> mac.init(hidden));
    assertThrows(InvalidKeyException.class, () -> mac.init(null));
    assertThrows(InvalidAlgorithmParameterException.class, () -> mac.init(key(k), new IvParameterSpec(new byte[16])));

    // A failed init leaves the Mac as it was: key and input so far.
    byte[] other = new byte[32];
    Arrays.fill(other, (byte) 5);
    mac.init(key(other));
    mac.update(new byte[] {1, 2, 3});
    assertThrows(InvalidKeyException.class, () -> mac.init(key(new byte[31])));
    assertThrows(InvalidAlgorithmParameterException.class, () -> mac.init(key(k), new IvParameterSpec(new byte[16])));
    mac.update((byte) 4);
    assertArrayEquals(Blake3.keyedHash(other, new byte[] {1, 2, 3, 4}), mac.doFinal());
  }

  @Test
  void macLifeCycle() throws Exception {
    byte[] k = Vectors.key();
    byte[] in = Vectors.input(10_000);
    byte[] want = Blake3.keyedHash(k, in);
    Mac mac = Mac.getInstance("BLAKE3", P);
    mac.init(key(k));
    mac.update(in, 0, 4000);
    Mac copy = (Mac) mac.clone();
    mac.reset();
    assertArrayEquals(Blake3.keyedHash(k, new byte[0]), mac.doFinal(), "reset keeps the key, drops the input");
    copy.update(ByteBuffer.wrap(in, 4000, 6000));
    byte[] out = new byte[40];
    copy.doFinal(out, 5);
    assertArrayEquals(want, Arrays.copyOfRange(out, 5, 37));
    assertArrayEquals(Blake3.keyedHash(k, new byte[0]), copy.doFinal(), "doFinal resets");
    ByteBuffer direct = ByteBuffer.allocateDirect(in.length);
    direct.put(in).flip();
    copy.update(direct);
    assertArrayEquals(want, copy.doFinal());
    // Ranges outside the array: an exception, and the input so far is kept.
    copy.update(in, 0, 100);
    assertThrows(IllegalArgumentException.class, () -> copy.update(in, -1, 5));
    assertThrows(IllegalArgumentException.class, () -> copy.update(in, 5, in.length));
    assertThrows(IllegalArgumentException.class, () -> copy.update(in, 0, -1));
    assertThrows(IllegalArgumentException.class, () -> copy.update((ByteBuffer) null));
    copy.update(in, 100, in.length - 100);
    assertArrayEquals(want, copy.doFinal());
    Mac fresh = (Mac) Mac.getInstance("BLAKE3", P).clone();
    assertThrows(IllegalStateException.class, () -> fresh.update((byte) 0), "a clone without a key has none");
  }

  /**
   * Random keys, inputs up to a few chunk trees long, streamed in random pieces through every
   * update method, with a clone taken and a reset made somewhere in the stream; each result
   * is compared with Bouncy Castle's lightweight classes and its own JCA "BLAKE3-256".
   */
  @Test
  void agreesWithBouncyCastleOnRandomStreams() throws Exception {
    Provider bc = new BouncyCastleProvider();
    long seed = Long.getLong("jca.seed", System.nanoTime());
    Random rnd = new Random(seed);
    for (int round = 0; round < 300; round++) {
      String what = "seed " + seed + " round " + round;
      int len = round < 200 ? rnd.nextInt(5000) : rnd.nextInt(300_000);
      byte[] in = new byte[len];
      rnd.nextBytes(in);
      byte[] k = new byte[32];
      rnd.nextBytes(k);

      Blake3Mac bcMac = new Blake3Mac(new Blake3Digest());
      bcMac.init(new KeyParameter(k));
      bcMac.update(in, 0, in.length);
      byte[] bcTag = new byte[32];
      bcMac.doFinal(bcTag, 0);
      Blake3Digest bcDigest = new Blake3Digest(256);
      bcDigest.update(in, 0, in.length);
      byte[] bcHash = new byte[32];
      bcDigest.doFinal(bcHash, 0);
      assertArrayEquals(bcHash, MessageDigest.getInstance("BLAKE3-256", bc).digest(in), what);

      Mac mac = Mac.getInstance("BLAKE3", P);
      mac.init(key(k));
      MessageDigest md = MessageDigest.getInstance(rnd.nextBoolean() ? "BLAKE3" : "BLAKE3-256", P);
      // Some junk first, then a reset: the reset must forget it.
      if (rnd.nextInt(4) == 0) {
        byte[] junk = new byte[rnd.nextInt(3000)];
        rnd.nextBytes(junk);
        mac.update(junk);
        md.update(junk);
        mac.reset();
        md.reset();
      }
      int cloneAt = rnd.nextInt(len + 1);
      Mac macClone = null;
      MessageDigest mdClone = null;
      int pos = 0;
      while (pos < len || macClone == null) {
        if (macClone == null && pos >= cloneAt) {
          macClone = (Mac) mac.clone();
          mdClone = (MessageDigest) md.clone();
          // The original goes on with other input: the clone must not see it.
          mac.update((byte) 1);
          md.update((byte) 1);
          mac.reset();
          md.reset();
          mac.update(in, 0, pos);
          md.update(in, 0, pos);
        }
        if (pos >= len) {
          continue;
        }
        int n = Math.min(len - pos, rnd.nextInt(4) == 0 ? rnd.nextInt(3) : rnd.nextInt(20_000));
        Mac[] macs = macClone == null ? new Mac[] {mac} : new Mac[] {mac, macClone};
        MessageDigest[] mds = mdClone == null ? new MessageDigest[] {md} : new MessageDigest[] {md, mdClone};
        switch (rnd.nextInt(4)) {
          case 0:
            for (int i = 0; i < n; i++) {
              for (Mac m : macs) {
                m.update(in[pos + i]);
              }
              for (MessageDigest d : mds) {
                d.update(in[pos + i]);
              }
            }
            break;
          case 1:
            for (Mac m : macs) {
              m.update(in, pos, n);
            }
            for (MessageDigest d : mds) {
              d.update(in, pos, n);
            }
            break;
          case 2:
            for (Mac m : macs) {
              m.update(ByteBuffer.wrap(in, pos, n));
            }
            for (MessageDigest d : mds) {
              d.update(ByteBuffer.wrap(in, pos, n));
            }
            break;
          default:
            ByteBuffer direct = ByteBuffer.allocateDirect(n);
            direct.put(in, pos, n);
            for (Mac m : macs) {
              direct.flip();
              m.update(direct);
            }
            for (MessageDigest d : mds) {
              direct.flip();
              d.update(direct);
            }
        }
        pos += n;
      }
      assertArrayEquals(bcTag, mac.doFinal(), what + ": Mac");
      assertArrayEquals(bcTag, macClone.doFinal(), what + ": Mac clone");
      assertArrayEquals(bcHash, md.digest(), what + ": MessageDigest");
      assertArrayEquals(bcHash, mdClone.digest(), what + ": MessageDigest clone");
    }
  }

  @Test
  void bouncyCastleNamesSeenHere() {
    Provider bc = new BouncyCastleProvider();
    Set<String> names = new java.util.TreeSet<>();
    for (Provider.Service s : bc.getServices()) {
      if (s.getAlgorithm().toUpperCase(java.util.Locale.ROOT).startsWith("BLAKE3")) {
        names.add(s.getType() + "." + s.getAlgorithm());
      }
    }
    // Ours take the same names where Bouncy Castle has one; it has no BLAKE3 Mac in the JCA.
    assertEquals(Set.of("MessageDigest.BLAKE3-256"), names);
  }
}
