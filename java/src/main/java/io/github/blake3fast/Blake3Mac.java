package io.github.blake3fast;

import java.nio.ByteBuffer;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import javax.crypto.MacSpi;
import javax.crypto.SecretKey;

/**
 * The Mac "BLAKE3" behind {@link Blake3Provider}: BLAKE3's keyed hash, a 32-byte key, a 32-byte
 * tag. The key is any {@link SecretKey} with raw encoding ({@code new SecretKeySpec(key32,
 * "BLAKE3")}); its algorithm name is not checked, as the JDK's HMACs do not check theirs.
 */
final class Blake3Mac extends MacSpi implements Cloneable {
  /** Null until init; after a failed init, the one before stays, as {@code Mac} expects. */
  private TreeState state;
  private byte[] one = new byte[1];

  @Override
  protected int engineGetMacLength() {
    return Spec.OUT_LEN;
  }

  @Override
  protected void engineInit(Key key, AlgorithmParameterSpec params)
      throws InvalidKeyException, InvalidAlgorithmParameterException {
    if (params != null) {
      throw new InvalidAlgorithmParameterException("the BLAKE3 Mac takes no parameters, not a "
          + params.getClass().getName());
    }
    byte[] raw = rawKey(key);
    int[] words = Spec.keyWords(raw);
    Arrays.fill(raw, (byte) 0);
    try {
      state = new TreeState(Engine.kernel(), words, Spec.KEYED_HASH);
    } finally {
      Arrays.fill(words, 0);
    }
  }

  private static byte[] rawKey(Key key) throws InvalidKeyException {
    if (!(key instanceof SecretKey)) {
      throw new InvalidKeyException("the BLAKE3 Mac needs a SecretKey, not "
          + (key == null ? "null" : "a " + key.getClass().getName()));
    }
    if (!"RAW".equalsIgnoreCase(key.getFormat())) {
      throw new InvalidKeyException("the BLAKE3 Mac needs a key in RAW format, not " + key.getFormat());
    }
    byte[] raw = key.getEncoded();
    if (raw == null) {
      throw new InvalidKeyException("the key's bytes are not available (getEncoded() is null)");
    }
    if (raw.length != Spec.KEY_LEN) {
      Arrays.fill(raw, (byte) 0);
      throw new InvalidKeyException("BLAKE3 keys are " + Spec.KEY_LEN + " bytes, not " + raw.length);
    }
    return raw;
  }

  private TreeState state() {
    if (state == null) {
      throw new IllegalStateException("the BLAKE3 Mac has no key yet");
    }
    return state;
  }

  @Override
  protected void engineUpdate(byte input) {
    one[0] = input;
    state().update(one, 0, 1);
  }

  @Override
  protected void engineUpdate(byte[] input, int offset, int len) {
    Checks.range(input, offset, len);
    state().update(input, offset, len);
  }

  @Override
  protected void engineUpdate(ByteBuffer input) {
    state().update(input);
  }

  @Override
  protected byte[] engineDoFinal() {
    byte[] out = new byte[Spec.OUT_LEN];
    state().finish(out, 0, out.length);
    state.reset();
    return out;
  }

  @Override
  protected void engineReset() {
    if (state != null) {
      state.reset();
    }
  }

  @Override
  public Object clone() throws CloneNotSupportedException {
    Blake3Mac c = (Blake3Mac) super.clone();
    c.state = state == null ? null : state.copy();
    c.one = new byte[1];
    return c;
  }
}
