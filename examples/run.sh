#!/usr/bin/env bash
# The library as adopters package it: installs blake3-fast 0.1.0 into the local Maven repository,
# builds the projects under examples/ against it (Spring Boot executable jar, shaded uber jar
# with relocation, a named module, also run from the class path and linked into jlink images,
# Spark; the Spark project's tests run here), then runs each packaging on JDK 17 and 25 and
# checks what it prints: the engine (Blake3.implementation()), BLAKE3("abc"), the hash of a file
# against Debian's b3sum, and its standard error (nothing, or the JDK's native-access warning or
# the library's refused-native warning where that is expected). Ends with "N passed, M failed".
#
#   examples/run.sh                   everything
#   EXAMPLES_MVN_ARGS='-Dmaven.repo.local=DIR' examples/run.sh    another local repository
#   JAVA17_HOME, JAVA25_HOME          the two JDKs (Debian's 17, Temurin 25 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
ex=$root/examples
read -r -a mvn_args <<<"-B ${EXAMPLES_MVN_ARGS:-}"
java17=${JAVA17_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
java25=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-examples.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
say() { printf '\n== %s (%ds)\n' "$*" "$(( $(date +%s) - start ))"; }

say "install the library (and its parent POM) into the local repository"
JAVA_HOME=$java17 mvn "${mvn_args[@]}" -q -pl java -am install -DskipTests

say "build the examples and run the Spark project's tests (JDK 17)"
log=$work/build.log
if ! JAVA_HOME=$java17 mvn "${mvn_args[@]}" -f "$ex/pom.xml" verify >"$log" 2>&1; then
  tail -n 80 "$log"
  echo "examples: the Maven build failed (log above)"
  exit 1
fi
grep -E '^spark: |Tests run: [0-9]+, Fail' "$log" || true

passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'ok    %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL  %s\n' "$*"; }

# The shade plugin warns about a top-level module-info.class; the library keeps its descriptor
# under META-INF/versions/9, so there must be no such warning.
if grep -q 'Discovered module-info.class' "$log"; then
  fail "shade build: $(grep 'Discovered module-info.class' "$log" | head -n 1)"
else
  pass "shade build: no module-info warning"
fi

lib_jar=$(ls "$ex"/modular/target/lib/blake3-fast-*.jar)
arch=$(uname -m)
abc=6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85   # BLAKE3("abc"), official
input=$work/input.bin
head -c $((3 * 1024 * 1024 + 123)) /dev/urandom >"$input"
want_file=$(b3sum --no-names "$input")

# The engine the plain library jar picks here (b3sum -V names it): every packaging must get it.
native=$("$java17/bin/java" -jar "$lib_jar" -V | sed -n 's/.*(blake3-fast, \(.*\))$/\1/p')
if "$java17/bin/jar" tf "$lib_jar" | grep -qx "META-INF/native/linux-$arch/libblake3fast.so"; then
  case $native in native-*) ;; *) fail "the jar has a library for linux-$arch, yet the engine is '$native'";; esac
fi

# The JDK's four lines (JDK 24+) for a System.load without native access.
warned() { [ "$(grep -c '^WARNING: ' "$1")" -eq 4 ] && grep -q '^WARNING: java.lang.System::load has been called by .*NativeLoader' "$1"; }

# The library's own warning (System.Logger through java.util.logging: a date line, then this)
# when it runs the Java engine because native access is denied.
refused() { [ "$(wc -l <"$1")" -eq 2 ] && grep -q '^WARNING: blake3-fast: using the Java engine: native refused: native access denied' "$1"; }

# check NAME ENGINE STDERR COMMAND...: ENGINE is what implementation() must say; STDERR is
# "quiet" (nothing at all), "warning" (exactly the JDK's native-access warning) or "refused"
# (exactly the library's warning that it runs the Java engine).
check() {
  local name=$1 engine=$2 stderr=$3 out=$work/$1.out err=$work/$1.err problems=()
  shift 3
  "$@" "$input" >"$out" 2>"$err" || problems+=("exit status $?")
  local got_engine got_abc got_file
  got_engine=$(sed -n 's/^engine: //p' "$out")
  got_abc=$(sed -n 's/^abc: //p' "$out")
  got_file=$(sed -n 's/^file: //p' "$out")
  [ "$got_engine" = "$engine" ] || problems+=("engine '$got_engine', expected '$engine'")
  [ "$got_abc" = "$abc" ] || problems+=("abc hashed to '$got_abc'")
  [ "$got_file" = "$want_file" ] || problems+=("file hashed to '$got_file', b3sum says '$want_file'")
  case $stderr in
    quiet) [ ! -s "$err" ] || problems+=("stderr not empty") ;;
    warning) warned "$err" || problems+=("stderr is not the JDK's native-access warning") ;;
    refused) refused "$err" || problems+=("stderr is not the library's native-refused warning") ;;
  esac
  if [ ${#problems[@]} -eq 0 ]; then
    pass "$name: $got_engine, abc and file hashes right, stderr $stderr"
  else
    fail "$name: $(IFS=';'; echo "${problems[*]}")"
    sed 's/^/      out: /' "$out"
    sed 's/^/      err: /' "$err"
  fi
}

boot=$ex/spring-boot/target/blake3-boot-1.0.jar
shaded=$ex/shaded/target/blake3-shaded-1.0.jar
mp=$ex/modular/target/lib:$ex/modular/target/blake3-modular.jar
cp=$lib_jar:$ex/modular/target/blake3-modular.jar
app=example.modular/example.modular.ModularApp
# The Java engine's reason ends with how to get the Vector API engine (docs/java-engines.md).
deny_cp="java (native refused: native access denied (Illegal native access from an unnamed module (file:$shaded)): allow it with --enable-native-access=ALL-UNNAMED; add --add-modules jdk.incubator.vector for the Vector API engine)"

# jlink stores --add-options in the image, so its launcher needs no flag. (The value's leading
# space keeps jlink from reading it as one of its own options.)
link() {
  local jdk=$1 out=$2
  rm -rf "$out"
  "$jdk/bin/jlink" --module-path "$mp" --add-modules example.modular \
    --add-options=' --enable-native-access=io.github.blake3fast' \
    --launcher app="$app" --strip-debug --no-header-files --no-man-pages --output "$out"
}

say "JDK 17"
j=$java17/bin/java
check classpath-jdk17 "$native" quiet "$j" -cp "$cp" example.modular.ModularApp
check boot-jdk17 "$native" quiet "$j" -jar "$boot"
check shaded-jdk17 "$native" quiet "$j" -jar "$shaded"
# The services transformer rewrote the library's ServiceLoader entry to the relocated class.
if grep -qx 'provider: example.shaded.blake3.Blake3Provider BLAKE3Fast' "$work/shaded-jdk17.out"; then
  pass "shaded-jdk17: ServiceLoader finds the relocated provider"
else
  fail "shaded-jdk17: ServiceLoader does not find example.shaded.blake3.Blake3Provider"
fi
check module-path-jdk17 "$native" quiet "$j" --module-path "$mp" -m "$app"
if link "$java17" "$work/image17"; then
  check jlink-jdk17 "$native" quiet "$work/image17/bin/app"
else
  fail "jlink-jdk17: jlink failed"
fi

say "JDK 25"
j=$java25/bin/java
check classpath-jdk25 "$native" quiet "$j" --enable-native-access=ALL-UNNAMED -cp "$cp" example.modular.ModularApp
check boot-jdk25 "$native" quiet "$j" -jar "$boot"
check shaded-jdk25 "$native" quiet "$j" -jar "$shaded"
check shaded-jdk25-classpath "$native" warning "$j" -cp "$shaded" example.shaded.ShadedApp
check module-path-jdk25 "$native" quiet "$j" --enable-native-access=io.github.blake3fast --module-path "$mp" -m "$app"
check module-path-jdk25-no-flag "$native" warning "$j" --module-path "$mp" -m "$app"
# Temurin 25 has no jmods: its jlink links from the run-time image itself (JEP 493).
if link "$java25" "$work/image25"; then
  check jlink-jdk25 "$native" quiet "$work/image25/bin/app"
else
  fail "jlink-jdk25: jlink failed"
fi
check deny-jdk25-classpath "$deny_cp" refused "$j" --illegal-native-access=deny -cp "$shaded" example.shaded.ShadedApp
check deny-jdk25-shaded-jar "$native" quiet "$j" --illegal-native-access=deny -jar "$shaded"
check deny-jdk25-boot-jar "$native" quiet "$j" --illegal-native-access=deny -jar "$boot"
check deny-jdk25-module-path "$native" quiet "$j" --illegal-native-access=deny --enable-native-access=io.github.blake3fast --module-path "$mp" -m "$app"

say "done"
echo "examples: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
