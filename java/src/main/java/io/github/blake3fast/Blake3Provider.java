package io.github.blake3fast;

import java.security.InvalidParameterException;
import java.security.Provider;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A {@link java.security.Provider} named {@value #NAME}: the {@code MessageDigest} "BLAKE3"
 * (aliases "BLAKE3-256", Bouncy Castle's name, and its OID) with a 32-byte output, and the
 * {@code Mac} "BLAKE3", the keyed hash with a 32-byte key ({@code SecretKeySpec(key32, "BLAKE3")})
 * and a 32-byte tag.
 *
 * <pre>{@code
 * Security.addProvider(new Blake3Provider());
 * MessageDigest md = MessageDigest.getInstance("BLAKE3");
 * Mac mac = Mac.getInstance("BLAKE3");
 * mac.init(new SecretKeySpec(key32, "BLAKE3"));
 * }</pre>
 *
 * <p>It is also registered for {@link java.util.ServiceLoader} (module path and class path),
 * which is how {@code security.provider.N=BLAKE3Fast} in a {@code java.security} file finds it;
 * {@code getInstance} alone does not consult {@code ServiceLoader}.
 */
public final class Blake3Provider extends Provider {
  private static final long serialVersionUID = 1L;

  /** The provider's name: {@value}. */
  public static final String NAME = "BLAKE3Fast";

  /** Bouncy Castle's OID for BLAKE3-256 (the cryptlib arc), an alias of the MessageDigest. */
  private static final String OID = "1.3.6.1.4.1.1722.12.2.3.8";

  /** Creates the provider. */
  public Blake3Provider() {
    super(NAME, "0.1", "BLAKE3 MessageDigest and Mac (blake3-fast)");
    putService(new Direct(this, "MessageDigest", Blake3MessageDigest.class, List.of("BLAKE3-256", OID, "OID." + OID),
        Map.of(), Blake3MessageDigest::new));
    // The key format lets Mac.init pick this provider only for keys it can take.
    putService(new Direct(this, "Mac", Blake3Mac.class, List.of(), Map.of("SupportedKeyFormats", "RAW"), Blake3Mac::new));
  }

  /** A service made without reflection: the classes need not be public or opened to java.base. */
  private static final class Direct extends Service {
    private final Supplier<Object> make;

    Direct(Provider p, String type, Class<?> impl, List<String> aliases, Map<String, String> attributes,
        Supplier<Object> make) {
      super(p, type, "BLAKE3", impl.getName(), aliases, attributes);
      this.make = make;
    }

    @Override
    public Object newInstance(Object constructorParameter) {
      if (constructorParameter != null) {
        throw new InvalidParameterException("constructorParameter not used with " + getType() + " engines");
      }
      return make.get();
    }
  }
}
