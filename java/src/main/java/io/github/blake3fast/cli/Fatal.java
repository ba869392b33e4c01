package io.github.blake3fast.cli;

/** Ends the whole run with {@code Error: message} and status 1 (the official tool's fatal errors). */
final class Fatal extends Exception {
  private static final long serialVersionUID = 1L;

  Fatal(String message) {
    super(message, null, false, false);
  }
}
