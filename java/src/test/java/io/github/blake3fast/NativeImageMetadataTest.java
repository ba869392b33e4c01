package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The GraalVM native-image metadata the jar ships (META-INF/native-image/...) against what the
 * code needs, read from the sources: every class, method, field and exception type the JNI glue
 * (native/src/blake3_jni.c) looks up or registers, every resource the loader reads, and the
 * classes that load native code while they initialize. No GraalVM runs here, so this keeps the
 * metadata from drifting: a lookup added in C, or a native method added in Java, without its
 * entry fails; so does an entry nothing needs any more.
 */
class NativeImageMetadataTest {
  private static final String DIR = "META-INF/native-image/io.github.blake3fast/blake3-fast/";

  private static String resource(String name) throws IOException {
    try (InputStream in = NativeImageMetadataTest.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        fail("the jar does not carry " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  // ---- JNI -------------------------------------------------------------------------------------

  @Test
  void jniConfigHoldsExactlyWhatTheGlueLooksUp() throws IOException {
    Set<String> needed = jniNeeds(RepoFiles.read(RepoFiles.root().resolve("native/src/blake3_jni.c")));
    Set<String> declared = jniDeclared(resource(DIR + "jni-config.json"));
    assertEquals(needed, declared, "jni-config.json and native/src/blake3_jni.c disagree:\n  needed, not declared: "
        + minus(needed, declared) + "\n  declared, not needed: " + minus(declared, needed));
  }

  @Test
  void everyNativeMethodOfTheJavaSideIsRegistered() throws IOException {
    Set<String> declared = jniDeclared(resource(DIR + "jni-config.json"));
    Set<String> natives = new TreeSet<>();
    for (Method m : NativeBlake3.class.getDeclaredMethods()) {
      if (Modifier.isNative(m.getModifiers())) {
        natives.add(member(NativeBlake3.class.getName(), m.getName(),
            Arrays.stream(m.getParameterTypes()).map(Class::getTypeName).collect(Collectors.toList())));
      }
    }
    assertFalse(natives.isEmpty());
    assertEquals(Set.of(), minus(natives, declared), "native methods without a jni-config.json entry");
  }

  /** Parses the C file: one entry per class ("class X") and per member ("X.name(types)"). */
  static Set<String> jniNeeds(String c) {
    Set<String> out = new TreeSet<>();
    Matcher def = Pattern.compile("#define\\s+B3J_DEFAULT_CLASS\\s+\"([^\"]+)\"").matcher(c);
    assertTrue(def.find(), "B3J_DEFAULT_CLASS not found in blake3_jni.c");
    String registered = def.group(1);
    out.add("class " + registered);

    // Which class each jclass variable holds: the last FindClass assigned to it before a use.
    Pattern assign = Pattern.compile("(\\w+)\\s*=\\s*\\(\\*env\\)->FindClass\\(\\s*env\\s*,\\s*(\"[^\"]*\"|\\w+)\\s*\\)");
    List<Integer> at = new ArrayList<>();
    List<String[]> vars = new ArrayList<>();
    Matcher a = assign.matcher(c);
    while (a.find()) {
      String arg = a.group(2);
      String cls = arg.startsWith("\"") ? arg.substring(1, arg.length() - 1).replace('/', '.') : registered;
      at.add(a.start());
      vars.add(new String[] {a.group(1), cls});
    }
    Matcher any = Pattern.compile("->FindClass\\(\\s*env\\s*,\\s*(\"[^\"]*\"|\\w+)").matcher(c);
    int calls = 0;
    while (any.find()) {
      calls++;
      String arg = any.group(1);
      out.add("class " + (arg.startsWith("\"") ? arg.substring(1, arg.length() - 1).replace('/', '.') : registered));
    }
    assertEquals(vars.size(), calls, "a FindClass whose result is not assigned to a variable: this test cannot follow it");

    Matcher m = Pattern.compile("->Get(Static)?(Method|Field)ID\\(\\s*env\\s*,\\s*(\\w+)\\s*,\\s*\"([^\"]+)\"\\s*,\\s*\"([^\"]+)\"")
        .matcher(c);
    while (m.find()) {
      String cls = classOf(m.group(3), m.start(), at, vars);
      if (m.group(2).equals("Method")) {
        out.add(member(cls, m.group(4), parameterTypes(m.group(5))));
      } else {
        out.add(cls + "#" + m.group(4));
      }
    }
    Matcher t = Pattern.compile("->ThrowNew\\(\\s*env\\s*,\\s*(\\w+)").matcher(c);
    while (t.find()) {
      out.add(member(classOf(t.group(1), t.start(), at, vars), "<init>", List.of("java.lang.String")));
    }
    Matcher nm = Pattern.compile("\\{\\s*\"(\\w+)\"\\s*,\\s*\"(\\([^\"]*\\)[^\"]*)\"\\s*,\\s*\\(void\\s*\\*\\)").matcher(c);
    int natives = 0;
    while (nm.find()) {
      natives++;
      out.add(member(registered, nm.group(1), parameterTypes(nm.group(2))));
    }
    assertTrue(natives > 0, "no JNINativeMethod table found in blake3_jni.c");
    assertTrue(c.contains("RegisterNatives"), "blake3_jni.c no longer calls RegisterNatives: revisit this test");
    return out;
  }

  private static String classOf(String var, int pos, List<Integer> at, List<String[]> vars) {
    String cls = null;
    for (int i = 0; i < vars.size(); i++) {
      if (at.get(i) < pos && vars.get(i)[0].equals(var)) {
        cls = vars.get(i)[1];
      }
    }
    if (cls == null) {
      fail("blake3_jni.c uses jclass " + var + " before any FindClass assigns it: this test cannot follow it");
    }
    return cls;
  }

  /** The same entries from jni-config.json. */
  @SuppressWarnings("unchecked")
  static Set<String> jniDeclared(String json) {
    Set<String> out = new TreeSet<>();
    for (Object o : (List<Object>) Json.parse(json)) {
      Map<String, Object> e = (Map<String, Object>) o;
      String cls = (String) e.get("name");
      out.add("class " + cls);
      for (Object mo : (List<Object>) e.getOrDefault("methods", List.of())) {
        Map<String, Object> m = (Map<String, Object>) mo;
        List<String> types = new ArrayList<>();
        for (Object p : (List<Object>) m.get("parameterTypes")) {
          types.add((String) p);
        }
        out.add(member(cls, (String) m.get("name"), types));
      }
      for (Object fo : (List<Object>) e.getOrDefault("fields", List.of())) {
        out.add(cls + "#" + ((Map<String, Object>) fo).get("name"));
      }
    }
    return out;
  }

  private static String member(String cls, String name, List<String> types) {
    return cls + "." + name + "(" + String.join(",", types) + ")";
  }

  /** Java type names of a JNI method descriptor's parameters: "(I[BLjava/nio/ByteBuffer;)V". */
  static List<String> parameterTypes(String descriptor) {
    List<String> out = new ArrayList<>();
    int i = 1;
    while (descriptor.charAt(i) != ')') {
      int dims = 0;
      while (descriptor.charAt(i) == '[') {
        dims++;
        i++;
      }
      String base;
      char k = descriptor.charAt(i);
      if (k == 'L') {
        int end = descriptor.indexOf(';', i);
        base = descriptor.substring(i + 1, end).replace('/', '.');
        i = end + 1;
      } else {
        base = primitive(k);
        i++;
      }
      out.add(base + "[]".repeat(dims));
    }
    return out;
  }

  private static String primitive(char k) {
    switch (k) {
      case 'Z': return "boolean";
      case 'B': return "byte";
      case 'C': return "char";
      case 'S': return "short";
      case 'I': return "int";
      case 'J': return "long";
      case 'F': return "float";
      case 'D': return "double";
      default: throw new IllegalArgumentException("not a JNI type: " + k);
    }
  }

  @Test
  void descriptorsParse() {
    assertEquals(List.of("int", "byte[]", "java.nio.ByteBuffer", "int[][]", "long"),
        parameterTypes("(I[BLjava/nio/ByteBuffer;[[IJ)V"));
    assertEquals(List.of(), parameterTypes("()I"));
  }

  /** The check itself: a lookup added to the C file without metadata is reported. */
  @Test
  void aLookupAddedInCWithoutMetadataIsCaught() throws IOException {
    String c = RepoFiles.read(RepoFiles.root().resolve("native/src/blake3_jni.c"));
    String added = c.replace("static jint JNICALL b3j_abi_version(",
        "static void b3j_new_lookup(JNIEnv *env) {\n"
            + "  jclass s = (*env)->FindClass(env, \"java/lang/Thread\");\n"
            + "  (void)(*env)->GetStaticMethodID(env, s, \"currentThread\", \"()Ljava/lang/Thread;\");\n"
            + "  (void)(*env)->GetFieldID(env, s, \"name\", \"Ljava/lang/String;\");\n"
            + "}\n"
            + "static jint JNICALL b3j_abi_version(");
    assertTrue(added.length() > c.length(), "the C file changed: update this test's insertion point");
    Set<String> extra = minus(jniNeeds(added), jniDeclared(resource(DIR + "jni-config.json")));
    assertEquals(new TreeSet<>(List.of("class java.lang.Thread", "java.lang.Thread.currentThread()",
        "java.lang.Thread#name")), extra);
  }

  // ---- resources -------------------------------------------------------------------------------

  @Test
  @SuppressWarnings("unchecked")
  void resourceConfigCoversWhatTheLoaderReads() throws IOException {
    // The loader's classes, and the one resource name they build from the platforms' names.
    String loader = "";
    for (String cls : List.of("NativeLoader", "BundledLibrary", "ExtractionDir", "Platform")) {
      loader += RepoFiles.read(RepoFiles.root().resolve("java/src/main/java/io/github/blake3fast/" + cls + ".java"));
    }
    Set<String> platforms = new TreeSet<>();
    Set<String> names = new TreeSet<>();
    for (Platform p : Platform.values()) {
      platforms.add(p.dir);
      names.add("META-INF/native/" + p.dir + "/" + p.libraryName());
    }
    assertTrue(platforms.size() >= 6, "platforms of the Platform enum: " + platforms);
    Set<String> confs = new TreeSet<>();
    try (Stream<Path> files = Files.list(RepoFiles.root().resolve("platforms"))) {
      for (Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".conf"))::iterator) {
        Matcher m = Pattern.compile("(?m)^ARCH=(\\S+)").matcher(RepoFiles.read(f));
        assertTrue(m.find(), f + " names no ARCH");
        confs.add(m.group(1).contains("-") ? m.group(1) : "linux-" + m.group(1));
      }
    }
    assertEquals(confs, platforms, "platforms/*.conf and the Platform enum name different platforms");
    Matcher r = Pattern.compile("\"(META-INF/[^\"]*)\"").matcher(loader);
    List<String> literals = new ArrayList<>();
    while (r.find()) {
      literals.add(r.group(1));
    }
    assertEquals(List.of("META-INF/native/"), literals,
        "The loader reads other resources than META-INF/native/<platform>/<library>: add them here and to resource-config.json");
    assertTrue(loader.contains("\"META-INF/native/\" + platform + \"/\" + here.libraryName()"), "the library's resource name changed");

    Map<String, Object> cfg = (Map<String, Object>) Json.parse(resource(DIR + "resource-config.json"));
    List<Pattern> patterns = new ArrayList<>();
    for (Object o : (List<Object>) ((Map<String, Object>) cfg.get("resources")).get("includes")) {
      patterns.add(Pattern.compile((String) ((Map<String, Object>) o).get("pattern")));
    }
    for (String name : names) {
      assertTrue(patterns.stream().anyMatch(q -> q.matcher(name).matches()), "resource-config.json does not include " + name);
    }
    for (Pattern q : patterns) {
      assertTrue(names.stream().anyMatch(n -> q.matcher(n).matches()), "resource-config.json includes what the loader never reads: " + q);
    }
  }

  // ---- class initialization --------------------------------------------------------------------

  @Test
  void classesThatLoadNativeCodeInitializeAtRunTime() throws IOException {
    Properties props = new Properties();
    props.load(new java.io.StringReader(resource(DIR + "native-image.properties")));
    String args = props.getProperty("Args", "");
    Matcher m = Pattern.compile("--initialize-at-run-time=(\\S+)").matcher(args);
    assertTrue(m.find(), "native-image.properties: no --initialize-at-run-time in Args: " + args);
    Set<String> runTime = new TreeSet<>(Arrays.asList(m.group(1).split(",")));
    for (String cls : runTime) {
      try {
        Class.forName(cls, false, getClass().getClassLoader());
      } catch (ClassNotFoundException e) {
        fail("native-image.properties names a class that does not exist: " + cls);
      }
    }
    // A static field initialized by the loader's choice loads native code at class init.
    Path main = RepoFiles.root().resolve("java/src/main/java");
    Set<String> loading = new TreeSet<>();
    try (Stream<Path> files = Files.walk(main)) {
      for (Path f : (Iterable<Path>) files.filter(x -> x.toString().endsWith(".java"))::iterator) {
        String src = RepoFiles.read(f);
        String cls = main.relativize(f).toString().replace('/', '.').replaceAll("\\.java$", "");
        if (Pattern.compile("static[^;(]*=\\s*NativeLoader\\.choose\\(\\)").matcher(src).find()
            || src.contains("System.load(") || Pattern.compile("static\\s*\\{[^}]*NativeLoader\\.").matcher(src).find()) {
          loading.add(cls);
        }
      }
    }
    assertEquals(new TreeSet<>(List.of("io.github.blake3fast.Engine", "io.github.blake3fast.NativeLoader")), loading,
        "classes that load native code changed: check native-image.properties, then this list");
    assertEquals(Set.of(), minus(loading, runTime), "classes that load native code but initialize at build time");
  }

  private static Set<String> minus(Set<String> a, Set<String> b) {
    Set<String> d = new TreeSet<>(a);
    d.removeAll(b);
    return d;
  }
}
