package io.github.blake3fast.bao;

import java.io.IOException;

/**
 * A Bao encoding, outboard or slice failed verification: it is not what the hash promises. The
 * message says which node failed (a chunk group, a parent, the length header) and where; no
 * byte of that node, nor anything after it, was returned. Another {@link IOException} means
 * that reading itself failed (the file, the network), not the content.
 */
public class Blake3BaoException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What failed. */
  public enum Kind {
    /** A chunk (or chunk group) does not hash to the value its parent (or the root hash) promises. */
    CHUNK,
    /** A parent node does not hash to the value its own parent (or the root hash) promises. */
    PARENT,
    /**
     * The length header cannot be that of any encoding this decoder reads: more than
     * 2<sup>63</sup> - 1 bytes, or an encoding longer than any file. An altered length is
     * otherwise caught as the chunk or parent it misplaces.
     */
    LENGTH,
    /** The encoding ends before a node it must hold: truncated, or its header lies. */
    TRUNCATED
  }

  /** What failed. */
  private final Kind kind;

  Blake3BaoException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  /** {@return what failed} */
  public Kind kind() {
    return kind;
  }
}
