# shellcheck shell=bash
# Shared by ./jdvm and ./dev: find a JDK >= 25, build, and prepare the fast launch.

JDVM_ROOT="${JDVM_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
JDVM_MIN_JAVA=25
JDVM_BUILD_DIR="$JDVM_ROOT/build"
# Written at the end of a successful build; the launcher's fast path sources it.
JDVM_LAUNCH="$JDVM_BUILD_DIR/launch.sh"

# The feature version of the JDK at $1 (from its release file), or nothing.
jdvm_java_version() {
  local home=$1 v
  [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 1
  v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release" 2>/dev/null)
  [ -n "$v" ] || return 1
  echo "$v"
}

# Prints the home of a JDK >= 25: JAVA_HOME if it qualifies, else the newest found in the usual
# places. Prints one sentence to stderr and fails if there is none.
jdvm_find_jdk() {
  local v best="" bestv=0 home
  if [ -n "${JAVA_HOME:-}" ] && v=$(jdvm_java_version "$JAVA_HOME"); then
    if [ "$v" -ge "$JDVM_MIN_JAVA" ]; then
      echo "$JAVA_HOME"
      return 0
    fi
    echo "jdvm: JAVA_HOME=$JAVA_HOME is JDK $v, too old (jdvm needs $JDVM_MIN_JAVA or newer); looking elsewhere." >&2
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
    echo "jdvm needs a JDK $JDVM_MIN_JAVA or newer and found none: install one (for example Temurin 25 from adoptium.net, or 'apt-get install openjdk-25-jdk' where the distribution has it) or set JAVA_HOME to it." >&2
    return 1
  fi
  echo "$best"
}

# True when a source or build file is newer than the last successful build.
jdvm_needs_build() {
  [ -f "$JDVM_LAUNCH" ] || return 0
  [ -n "$(cd "$JDVM_ROOT" && find pom.xml jdvm-*/pom.xml jdvm-*/src/main -newer "$JDVM_LAUNCH" -print -quit 2>/dev/null)" ]
}

# The class path of the command-line tool: its jar and the jars it depends on.
jdvm_classpath() {
  local cp="" j
  for j in "$JDVM_ROOT"/jdvm-cli/target/jdvm-cli-*.jar "$JDVM_ROOT"/jdvm-cli/target/lib/*.jar; do
    [ -f "$j" ] && cp="${cp:+$cp:}$j"
  done
  echo "$cp"
}

# Builds the command-line tool and its dependencies (no tests) into jdvm-cli/target, then prepares
# the fast launch.
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
  jdvm_prepare_launch "$java_home"
}

# Trains the JVM's class cache on the common commands (against a scratch DVM) and writes
# build/launch.sh. JDK 25+: an AOT cache; JDK 21-24: a CDS archive. A failed training only costs
# start-up speed, never correctness: the launch then runs without a cache.
jdvm_prepare_launch() {
  local java_home=$1 v cp java opts="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED" train_opts use_opts=""
  v=$(jdvm_java_version "$java_home")
  cp=$(jdvm_classpath)
  java="$java_home/bin/java"
  local cache train="$JDVM_BUILD_DIR/aot-train"
  if [ "$v" -ge 25 ]; then
    cache="$JDVM_BUILD_DIR/jdvm.aot"
    train_opts="-XX:AOTCacheOutput=$cache"
    use_opts="-XX:AOTCache=$cache -Xlog:aot=off -Xlog:cds=off"
  else
    cache="$JDVM_BUILD_DIR/jdvm.jsa"
    train_opts="-XX:ArchiveClassesAtExit=$cache"
    use_opts="-XX:SharedArchiveFile=$cache -Xlog:cds=off"
  fi
  rm -rf "$train" "$cache"
  if "$java" -cp "$cp" org.jdvm.cli.Main start --detach --dir "$train" --nodes 1 --slots 4 --spare 2 \
      >"$JDVM_BUILD_DIR/aot-train.log" 2>&1; then
    # shellcheck disable=SC2086
    "$java" $opts $train_opts -cp "$cp" org.jdvm.cli.Main __aot-train "$train/dvm.json" \
      >>"$JDVM_BUILD_DIR/aot-train.log" 2>&1 || true
    "$java" -cp "$cp" org.jdvm.cli.Main stop --dir "$train" >>"$JDVM_BUILD_DIR/aot-train.log" 2>&1 || true
  fi
  [ -f "$cache" ] || use_opts=""
  cat >"$JDVM_LAUNCH.tmp" <<LAUNCH
# Written by the build; sourced by ./jdvm. Delete it to force a rebuild.
JDVM_JAVA_HOME='$java_home'
JDVM_JAVA_HOME_FROM='${JAVA_HOME:-}'
JDVM_CP='$cp'
JDVM_JOPTS='$opts $use_opts'
LAUNCH
  mv "$JDVM_LAUNCH.tmp" "$JDVM_LAUNCH"
}
