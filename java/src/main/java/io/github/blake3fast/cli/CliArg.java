package io.github.blake3fast.cli;

/**
 * The flags and options b3sum knows, in the order the official tool defines them (which decides
 * ties between spelling suggestions). The id is the name used to sort arguments in usage lines.
 */
enum CliArg {
  KEYED("keyed", null, null),
  NO_MMAP("no-mmap", null, null),
  NO_NAMES("no-names", null, null),
  RAW("raw", null, null),
  TAG("tag", null, null),
  CHECK("check", 'c', null),
  QUIET("quiet", null, null),
  HELP("help", 'h', null),
  VERSION("version", 'V', null),
  LENGTH("length", 'l', "LEN"),
  NUM_THREADS("num-threads", null, "NUM"),
  DERIVE_KEY("derive-key", null, "CONTEXT"),
  SEEK("seek", null, "SEEK");

  final String id;
  final Character shortName;
  /** Null for flags; the placeholder shown in messages for options that take a value. */
  final String valueName;

  CliArg(String id, Character shortName, String valueName) {
    this.id = id;
    this.shortName = shortName;
    this.valueName = valueName;
  }

  boolean takesValue() {
    return valueName != null;
  }

  /** How messages name it: {@code --length <LEN>} or {@code --raw}. */
  String display() {
    return takesValue() ? "--" + id + " <" + valueName + ">" : "--" + id;
  }

  static CliArg byLong(String name) {
    for (CliArg a : values()) {
      if (a.id.equals(name)) {
        return a;
      }
    }
    return null;
  }

  static CliArg byShort(char c) {
    for (CliArg a : values()) {
      if (a.shortName != null && a.shortName == c) {
        return a;
      }
    }
    return null;
  }
}
