package io.github.blake3fast.cli;

import java.util.List;

/** What the command line asked for, after parsing and before any value is interpreted. */
final class Options {
  boolean check;
  boolean quiet;
  boolean keyed;
  boolean raw;
  boolean noNames;
  boolean noMmap;
  boolean tag;
  /** Raw option values as typed, or null when the option is absent. */
  String length;
  String seek;
  String numThreads;
  String deriveKey;
  /** The index of the argument {@link #deriveKey} was read from (it ends that argument), or -1. */
  int deriveKeyWord = -1;
  /** Positional arguments; "-" (standard input) when none was given. */
  List<String> files;
}
