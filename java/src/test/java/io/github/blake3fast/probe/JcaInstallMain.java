package io.github.blake3fast.probe;

import io.github.blake3fast.Blake3Provider;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Security;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Run in a child JVM by {@code JcaInstallTest}: asks the JCA for the BLAKE3 services by name
 * alone, as an application does, and prints who answered and what ("missing" if nobody).
 * Argument {@code add}: installs the provider in code first. In its own package, which a named
 * {@code io.github.blake3fast} module does not hide when this runs from the class path.
 */
public final class JcaInstallMain {
  private JcaInstallMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("add")) {
      Security.addProvider(new Blake3Provider());
    }
    byte[] in = "abc".getBytes(StandardCharsets.US_ASCII);
    byte[] key = new byte[32];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) i;
    }
    HexFormat hex = HexFormat.of();
    for (String name : new String[] {"BLAKE3", "BLAKE3-256"}) {
      try {
        MessageDigest md = MessageDigest.getInstance(name);
        System.out.println("MessageDigest " + name + " " + md.getProvider().getName() + " " + hex.formatHex(md.digest(in)));
      } catch (NoSuchAlgorithmException e) {
        System.out.println("MessageDigest " + name + " missing");
      }
    }
    try {
      Mac mac = Mac.getInstance("BLAKE3");
      mac.init(new SecretKeySpec(key, "BLAKE3"));
      System.out.println("Mac BLAKE3 " + mac.getProvider().getName() + " " + hex.formatHex(mac.doFinal(in)));
    } catch (NoSuchAlgorithmException e) {
      System.out.println("Mac BLAKE3 missing");
    }
    System.out.println("module " + Blake3Provider.class.getModule().getName());
  }
}
