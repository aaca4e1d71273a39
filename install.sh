#!/usr/bin/env bash
# Installs btfkit: the jar, a `btfkit` command on PATH, and bash completion.
#   ./install.sh [PREFIX]     (default PREFIX: ~/.local; use /usr/local as root)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
prefix="${1:-$HOME/.local}"
(cd "$here" && mvn -B -q -DskipTests package)
install -d "$prefix/bin" "$prefix/share/btfkit" "$prefix/share/bash-completion/completions"
install -m 0644 "$here/cli/target/btfkit.jar" "$prefix/share/btfkit/btfkit.jar"
# the class-data-sharing archive must be made for the installed jar's path; a static one (the
# class list the build recorded), which unlike a dynamic archive also holds picocli's classes
java -Xshare:dump -XX:SharedClassListFile="$here/cli/target/btfkit.classlist" \
  -XX:SharedArchiveFile="$prefix/share/btfkit/btfkit.jsa" -Xlog:cds=off \
  -cp "$prefix/share/btfkit/btfkit.jar" >/dev/null 2>&1 || rm -f "$prefix/share/btfkit/btfkit.jsa"
cat > "$prefix/bin/btfkit" <<LAUNCHER
#!/usr/bin/env bash
cds=(); [ -f "$prefix/share/btfkit/btfkit.jsa" ] && cds=(-XX:SharedArchiveFile="$prefix/share/btfkit/btfkit.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off)
# the JVM flags of the repository's ./btfkit launcher (see the comment there)
exec java -XX:+UseSerialGC -Xms64m -Xmn16m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:PretenureSizeThreshold=256k -XX:-UsePerfData -XX:TieredStopAtLevel=1 -XX:Tier3BackEdgeThreshold=2000 -Xss16m -Xshare:auto "\${cds[@]}" \${BTFKIT_JAVA_OPTS:-} -jar "$prefix/share/btfkit/btfkit.jar" "\$@"
LAUNCHER
chmod 0755 "$prefix/bin/btfkit"
"$prefix/bin/btfkit" generate-completion > "$prefix/share/bash-completion/completions/btfkit"
echo "installed $prefix/bin/btfkit ($("$prefix/bin/btfkit" --version | head -1))"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "add $prefix/bin to PATH" ;; esac
