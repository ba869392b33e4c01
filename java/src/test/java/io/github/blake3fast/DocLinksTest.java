package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The user documentation's links: every relative link in README.md, docs/*.md and the other
 * READMEs names a file of the checkout, and every {@code #anchor} a heading of the page it points
 * to, by GitHub's rules (lowercase, spaces to '-', punctuation removed, "-1" for a repeat).
 * Every page under docs/ is reachable from README.md.
 */
class DocLinksTest {

  /**
   * Pages other branches write (Bao, the Java engines, the platforms, many messages at once): the
   * README links to them
   * before they arrive. Missing, they are reported and skipped; present, they are checked like
   * any other page. Empty this set once they are all merged.
   */
  static final Set<String> ARRIVING =
      Set.of();

  private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern INLINE_LINK = Pattern.compile("\\[([^\\]]*)\\]\\([^)]*\\)");

  /** The Markdown files whose links are checked, relative to the checkout's root. */
  static List<Path> pages(Path root) throws IOException {
    List<Path> pages = new ArrayList<>();
    for (String name : Arrays.asList("README.md", "RELEASING.md", "java/README.md",
        "bench/README.md", "native/README.md", "platforms/README.md",
        "test-vectors/README.md")) {
      if (Files.isRegularFile(root.resolve(name))) {
        pages.add(root.resolve(name));
      }
    }
    for (String dir : Arrays.asList("docs", "bench/notes", "bench/results")) {
      pages.addAll(markdownIn(root.resolve(dir)));
    }
    pages.sort(null);
    return pages;
  }

  static List<Path> markdownIn(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.md")) {
      for (Path p : files) {
        out.add(p);
      }
    }
    out.sort(null);
    return out;
  }

  /** Lines outside fenced code blocks, so that a shell comment is not a heading. */
  static List<String> prose(String text) {
    List<String> out = new ArrayList<>();
    boolean fenced = false;
    for (String line : text.split("\n", -1)) {
      if (line.trim().startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      out.add(fenced ? "" : line);
    }
    return out;
  }

  /** GitHub's anchor for a heading's text. */
  static String anchor(String heading) {
    String text = INLINE_LINK.matcher(heading).replaceAll("$1");
    StringBuilder sb = new StringBuilder();
    text.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
      if (c == ' ') {
        sb.append('-');
      } else if (c == '-' || c == '_' || Character.isLetterOrDigit(c)) {
        sb.appendCodePoint(c);
      }
    });
    return sb.toString();
  }

  /** Every anchor a page defines, repeats numbered as GitHub does. */
  static Set<String> anchors(String text) {
    Set<String> out = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String line : prose(text)) {
      Matcher m = HEADING.matcher(line);
      if (m.matches()) {
        String a = anchor(m.group(1));
        int n = seen.merge(a, 1, Integer::sum);
        out.add(n == 1 ? a : a + "-" + (n - 1));
      }
    }
    return out;
  }

  /** Relative link targets of a page (no scheme, no mail address), code blocks left out. */
  static List<String> links(String text) {
    List<String> out = new ArrayList<>();
    for (String line : prose(text)) {
      String noCode = line.replaceAll("`[^`]*`", "");
      Matcher m = LINK.matcher(noCode);
      while (m.find()) {
        String target = m.group(1);
        if (!target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
          out.add(target);
        }
      }
    }
    return out;
  }

  @Test
  void anchorsFollowGitHubsRules() {
    assertEquals("work-spread-over-machines-blake3hazmat",
        anchor("Work spread over machines: `Blake3Hazmat`"));
    assertEquals("jdk-24-and-later-native-access", anchor("JDK 24 and later: native access"));
    assertEquals("a-derive-key-key-of-zeros-compressword-blake3contextkey",
        anchor("A derive-key key of zeros (`Compress.word`, `Blake3.contextKey`)"));
    assertEquals(Set.of("x", "x-1", "y"), anchors("# x\n## x\n```\n# z\n```\n### y\n"));
    assertEquals(Arrays.asList("a.md", "b.md#c", "#d"),
        links("[a](a.md) ![i](b.md#c) `[no](e.md)` [w](https://x.org) [d](#d)\n```\n[f](f.md)\n```"));
  }

  @Test
  void everyRelativeLinkAndAnchorResolves() throws IOException {
    Path root = RepoFiles.root();
    List<String> broken = new ArrayList<>();
    Set<String> arriving = new TreeSet<>();
    Map<Path, Set<String>> anchorCache = new HashMap<>();
    List<Path> pages = pages(root);
    assertTrue(pages.size() >= 8, "README.md, the READMEs and docs/*.md: " + pages);
    int checked = 0;
    for (Path page : pages) {
      String rel = root.relativize(page).toString();
      for (String link : links(RepoFiles.read(page))) {
        checked++;
        int hash = link.indexOf('#');
        String file = hash < 0 ? link : link.substring(0, hash);
        String frag = hash < 0 ? null : link.substring(hash + 1);
        Path target = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        String targetRel = root.relativize(target).toString();
        if (!Files.exists(target)) {
          if (ARRIVING.contains(targetRel)) {
            arriving.add(targetRel + " (from " + rel + ")");
          } else {
            broken.add(rel + ": " + link + " (no file " + targetRel + ")");
          }
          continue;
        }
        if (!target.startsWith(root)) {
          broken.add(rel + ": " + link + " (outside the checkout)");
        } else if (frag != null && !frag.isEmpty() && !frag.matches("L[0-9].*")) {
          if (!target.toString().endsWith(".md")) {
            broken.add(rel + ": " + link + " (an anchor in a file that is not Markdown)");
            continue;
          }
          Set<String> defined = anchorCache.computeIfAbsent(target, t -> {
            try {
              return anchors(RepoFiles.read(t));
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          });
          if (!defined.contains(frag)) {
            broken.add(rel + ": " + link + " (no heading #" + frag + " in " + targetRel + ")");
          }
        }
      }
    }
    if (!arriving.isEmpty()) {
      System.out.println("DocLinksTest: not here yet (expected from other branches): " + arriving);
    }
    assertTrue(checked > 50, "links found: " + checked);
    assertEquals(List.of(), broken, "broken links");
  }

  @Test
  void everyDocsPageIsLinkedFromTheReadme() throws IOException {
    Path root = RepoFiles.root();
    Set<String> linked = new TreeSet<>();
    for (String link : links(RepoFiles.read(root.resolve("README.md")))) {
      linked.add(link.replaceAll("#.*", ""));
    }
    List<String> unlinked = new ArrayList<>();
    try (DirectoryStream<Path> docs = Files.newDirectoryStream(root.resolve("docs"), "*.md")) {
      for (Path p : docs) {
        String rel = root.relativize(p).toString();
        if (!linked.contains(rel)) {
          unlinked.add(rel);
        }
      }
    }
    assertEquals(List.of(), unlinked, "docs pages the README does not link to");
    for (String a : ARRIVING) {
      assertTrue(linked.contains(a), "the README links to " + a);
    }
  }

  @Test
  void everyBenchNoteAndReportIsListedInBenchReadme() throws IOException {
    Path bench = RepoFiles.root().resolve("bench");
    Set<String> linked = new TreeSet<>();
    for (String link : links(RepoFiles.read(bench.resolve("README.md")))) {
      linked.add(link.replaceAll("#.*", ""));
    }
    List<String> unlisted = new ArrayList<>();
    List<Path> notes = markdownIn(bench.resolve("notes"));
    assertTrue(notes.size() >= 10, "bench/notes: " + notes);
    notes.addAll(markdownIn(bench.resolve("results")));
    for (Path p : notes) {
      String rel = bench.relativize(p).toString();
      if (!linked.contains(rel)) {
        unlisted.add(rel);
      }
    }
    assertEquals(List.of(), unlisted, "bench/ Markdown files bench/README.md does not link to");
  }

  @Test
  void theReadmeStaysShort() throws IOException {
    long lines = RepoFiles.read(RepoFiles.root().resolve("README.md")).lines().count();
    assertTrue(lines <= 260, "README.md has " + lines + " lines; move details to docs/");
  }
}
