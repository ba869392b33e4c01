package io.github.blake3fast;

import java.nio.ByteBuffer;
import java.security.DigestException;
import java.security.MessageDigestSpi;

/** The MessageDigest "BLAKE3" behind {@link Blake3Provider}: a 32-byte plain hash. */
final class Blake3MessageDigest extends MessageDigestSpi implements Cloneable {
  private TreeState state = new TreeState(Engine.kernel(), Spec.iv(), 0);
  private byte[] one = new byte[1];

  @Override
  protected int engineGetDigestLength() {
    return Spec.OUT_LEN;
  }

  @Override
  protected void engineUpdate(byte input) {
    one[0] = input;
    state.update(one, 0, 1);
  }

  @Override
  protected void engineUpdate(byte[] input, int offset, int len) {
    Checks.range(input, offset, len);
    state.update(input, offset, len);
  }

  @Override
  protected void engineUpdate(ByteBuffer input) {
    state.update(input);
  }

  @Override
  protected byte[] engineDigest() {
    byte[] out = new byte[Spec.OUT_LEN];
    state.finish(out, 0, out.length);
    state.reset();
    return out;
  }

  /**
   * As the JDK's own digests do: a range that cannot hold the digest is a DigestException and
   * leaves the state as it was (MessageDigestSpi's default would reset it, then fail the copy).
   */
  @Override
  protected int engineDigest(byte[] buf, int offset, int len) throws DigestException {
    if (len < Spec.OUT_LEN) {
      throw new DigestException("BLAKE3 digests are " + Spec.OUT_LEN + " bytes; " + len + " do not hold one");
    }
    if (offset < 0 || offset > buf.length - Spec.OUT_LEN) {
      throw new DigestException("no room for a " + Spec.OUT_LEN + "-byte digest at offset " + offset + " of "
          + buf.length + " bytes");
    }
    state.finish(buf, offset, Spec.OUT_LEN);
    state.reset();
    return Spec.OUT_LEN;
  }

  @Override
  protected void engineReset() {
    state.reset();
  }

  @Override
  public Object clone() throws CloneNotSupportedException {
    Blake3MessageDigest c = (Blake3MessageDigest) super.clone();
    c.state = state.copy();
    c.one = new byte[1];
    return c;
  }
}
