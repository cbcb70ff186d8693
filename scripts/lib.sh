# shellcheck shell=bash
# Shared by ./jdvm and ./dev: find a JDK >= 21 and keep the build fresh.

JDVM_ROOT="${JDVM_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
JDVM_MIN_JAVA=21

# The feature version of the JDK at $1 (from its release file), or nothing.
jdvm_java_version() {
  local home=$1 v
  [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 1
  v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release" 2>/dev/null)
  [ -n "$v" ] || return 1
  echo "$v"
}

# Prints the home of a JDK >= 21: JAVA_HOME if it qualifies, else the newest found in the usual
# places. Prints one sentence to stderr and fails if there is none.
jdvm_find_jdk() {
  local v best="" bestv=0 home
  if [ -n "${JAVA_HOME:-}" ] && v=$(jdvm_java_version "$JAVA_HOME") && [ "$v" -ge "$JDVM_MIN_JAVA" ]; then
    echo "$JAVA_HOME"
    return 0
  fi
  for home in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/* \
    /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$home" ] || continue
    v=$(jdvm_java_version "$home") || continue
    if [ "$v" -ge "$JDVM_MIN_JAVA" ] && [ "$v" -gt "$bestv" ]; then
      best=$home
      bestv=$v
    fi
  done
  if [ -z "$best" ]; then
    echo "jdvm needs a JDK $JDVM_MIN_JAVA or newer and found none: install one (for example 'apt-get install openjdk-21-jdk' or Temurin 21+) or set JAVA_HOME to it." >&2
    return 1
  fi
  echo "$best"
}

JDVM_BUILD_DIR="$JDVM_ROOT/build"
JDVM_STAMP="$JDVM_BUILD_DIR/.built"

# True when a source or build file is newer than the last successful build.
jdvm_needs_build() {
  [ -f "$JDVM_STAMP" ] || return 0
  [ -n "$(find "$JDVM_ROOT" -maxdepth 1 -name pom.xml -newer "$JDVM_STAMP" -print -quit)" ] && return 0
  local m
  for m in "$JDVM_ROOT"/jdvm-*/; do
    [ -n "$(find "$m" -maxdepth 1 -name pom.xml -newer "$JDVM_STAMP" -print -quit)" ] && return 0
    [ -d "$m/src/main" ] || continue
    [ -n "$(find "$m/src/main" -newer "$JDVM_STAMP" -print -quit)" ] && return 0
  done
  return 1
}

# Builds the command-line tool and its dependencies (no tests) into jdvm-cli/target.
jdvm_build() {
  local java_home=$1
  command -v mvn >/dev/null 2>&1 || {
    echo "jdvm needs Apache Maven to build itself and found no 'mvn': install it (for example 'apt-get install maven')." >&2
    return 1
  }
  echo "jdvm: building (first run or sources changed)..." >&2
  mkdir -p "$JDVM_BUILD_DIR"
  if ! (cd "$JDVM_ROOT" && JAVA_HOME="$java_home" mvn -B -q -DskipTests -Djazzer.skip=true package -pl jdvm-cli -am \
        >"$JDVM_BUILD_DIR/build.log" 2>&1); then
    echo "jdvm: the build failed; see $JDVM_BUILD_DIR/build.log" >&2
    tail -n 30 "$JDVM_BUILD_DIR/build.log" >&2
    return 1
  fi
  touch "$JDVM_STAMP"
}

# The class path of the command-line tool: its jar and the jars it depends on.
jdvm_classpath() {
  local cp="" j
  for j in "$JDVM_ROOT"/jdvm-cli/target/jdvm-cli-*.jar "$JDVM_ROOT"/jdvm-cli/target/lib/*.jar; do
    [ -f "$j" ] && cp="${cp:+$cp:}$j"
  done
  echo "$cp"
}
