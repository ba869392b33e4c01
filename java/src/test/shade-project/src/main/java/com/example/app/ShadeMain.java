package com.example.app;

import io.github.blake3fast.Blake3;
import java.security.MessageDigest;

/**
 * The shaded application: after relocation it calls com.example.vendor.blake3.Blake3. Prints
 * which class it really called, the engine, and whether the official vector for 102400 bytes
 * (byte i = i % 251) and the relocated MessageDigest provider give the right hash.
 */
public final class ShadeMain {
  private ShadeMain() {}

  public static void main(String[] args) throws Exception {
    byte[] in = new byte[102400];
    for (int i = 0; i < in.length; i++) {
      in[i] = (byte) (i % 251);
    }
    String expected = "bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085";
    System.out.println("class=" + Blake3.class.getName());
    System.out.println("impl=" + Blake3.implementation());
    System.out.println("hash=" + (Blake3.toHex(Blake3.hash(in)).equals(expected) ? "ok" : "WRONG"));
    MessageDigest md = MessageDigest.getInstance("BLAKE3", new io.github.blake3fast.Blake3Provider());
    System.out.println("digest=" + (Blake3.toHex(md.digest(in)).equals(expected) ? "ok" : "WRONG"));
    System.out.println("done");
  }
}
