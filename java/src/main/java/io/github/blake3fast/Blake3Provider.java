package io.github.blake3fast;

import java.security.NoSuchAlgorithmException;
import java.security.Provider;

/**
 * A {@link java.security.Provider} with the {@code MessageDigest} "BLAKE3" (32-byte output).
 *
 * <pre>{@code
 * Security.addProvider(new Blake3Provider());
 * MessageDigest md = MessageDigest.getInstance("BLAKE3");
 * }</pre>
 *
 * It is also registered for {@link java.util.ServiceLoader} (module path and class path).
 */
public final class Blake3Provider extends Provider {
  private static final long serialVersionUID = 1L;

  /** The provider's name: {@value}. */
  public static final String NAME = "BLAKE3Fast";

  /** Creates the provider. */
  public Blake3Provider() {
    super(NAME, "0.1", "BLAKE3 message digest (blake3-fast)");
    putService(new Service(this, "MessageDigest", "BLAKE3", Blake3MessageDigest.class.getName(), null, null) {
      @Override
      public Object newInstance(Object constructorParameter) throws NoSuchAlgorithmException {
        return new Blake3MessageDigest();
      }
    });
  }
}
