package io.github.blake3fast;

import io.github.blake3fast.Blake3Hazmat.Mode;
import io.github.blake3fast.Blake3Hazmat.Piece;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/** The root of a whole input from its pieces, for {@link Blake3Hazmat#rootOutputReader}. */
final class PieceJoin {
  private PieceJoin() {}

  /** See {@link Blake3Hazmat#rootOutputReader}: checks that the pieces tile an input first. */
  static Blake3OutputReader outputReader(Collection<Piece> pieces, Mode mode) {
    Objects.requireNonNull(pieces, "pieces");
    Objects.requireNonNull(mode, "mode");
    List<Piece> sorted = new ArrayList<>(pieces);
    for (Piece p : sorted) {
      Objects.requireNonNull(p, "piece");
      if (p.flags() != mode.flags) {
        throw new IllegalArgumentException("a piece was hashed in another mode than " + mode + ": " + p);
      }
    }
    sorted.sort(Comparator.comparingLong(Piece::offset).thenComparingLong(Piece::length));
    long end = 0;
    for (int i = 0; i < sorted.size(); i++) {
      Piece p = sorted.get(i);
      if (p.offset() != end) {
        throw new IllegalArgumentException(p.offset() < end
            ? "pieces overlap: " + p + " starts before byte " + end
            : "pieces leave a gap: bytes [" + end + ", " + p.offset() + ") are in none");
      }
      if (p.length() % Spec.CHUNK_LEN != 0 && hasLaterBytes(sorted, i)) {
        throw new IllegalArgumentException("only the last piece may end inside a chunk: " + p);
      }
      end += p.length();
    }
    Kernel kernel = Engine.kernel();
    if (end <= Spec.CHUNK_LEN) {
      // The root is the one chunk itself: hash its bytes, which its piece carries.
      byte[] bytes = new byte[0];
      for (Piece p : sorted) {
        if (p.length() > 0) {
          bytes = p.soleChunk();
        }
      }
      if (bytes == null) {
        throw new IllegalArgumentException("the piece of an input of at most one chunk lacks its bytes");
      }
      TreeState s = new TreeState(kernel, mode.key, mode.flags);
      s.update(bytes, 0, bytes.length);
      return new Blake3OutputReader(kernel, s.output());
    }
    // The values go on the stack the tree driver uses, left to right; the last one stays out
    // (in r[16, 24), the right half of the root's block) and the stack folds onto it.
    CvStack stack = new CvStack(mode.key, mode.flags, 0);
    int[] r = new int[24];
    long lastSize = 0;
    for (Piece p : sorted) {
      long c = p.offset() / Spec.CHUNK_LEN;
      long n = (p.length() + Spec.CHUNK_LEN - 1) / Spec.CHUNK_LEN;
      for (int i = 0; n > 0; i++) {
        if (lastSize > 0) {
          stack.push(r, 16, lastSize);
        }
        lastSize = SubtreeGeometry.canonicalSize(c, n);
        ChainingValues.words(p.cvs(), 32 * i, r, 16);
        c += lastSize;
        n -= lastSize;
      }
    }
    stack.merge();
    if (stack.depth() == 0) {
      throw new IllegalStateException("an input of more than one chunk reduced to one value");
    }
    stack.foldRoot(r);
    return new Blake3OutputReader(kernel, ChainingValues.rootParent(Arrays.copyOfRange(r, 8, 24), mode));
  }

  private static boolean hasLaterBytes(List<Piece> sorted, int i) {
    for (int j = i + 1; j < sorted.size(); j++) {
      if (sorted.get(j).length() > 0) {
        return true;
      }
    }
    return false;
  }
}
