#!/usr/bin/env bash
# Installs btfkit: the jar, a `btfkit` command on PATH, and bash completion.
#   ./install.sh [PREFIX]     (default PREFIX: ~/.local; use /usr/local as root)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
prefix="${1:-$HOME/.local}"
# -B: no colours; jansi.noreset: Maven 3.8's console library otherwise ends its output with
# ESC[0m reset codes even in batch mode, which land in logs when output is not a terminal
(cd "$here" && MAVEN_OPTS="${MAVEN_OPTS:-} -Djansi.noreset=true" mvn -B -q -Dstyle.color=never -DskipTests package)
compdir="$prefix/share/bash-completion/completions"
install -d "$prefix/bin" "$prefix/share/btfkit" "$compdir"
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
exec java -XX:+UseSerialGC -Xms32m -Xmn16m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:PretenureSizeThreshold=256k -XX:-UsePerfData -XX:TieredStopAtLevel=1 -XX:Tier3BackEdgeThreshold=2000 -Xss16m -Xshare:auto "\${cds[@]}" \${BTFKIT_JAVA_OPTS:-} -jar "$prefix/share/btfkit/btfkit.jar" "\$@"
LAUNCHER
chmod 0755 "$prefix/bin/btfkit"
"$prefix/bin/btfkit" generate-completion > "$compdir/btfkit"
echo "installed $prefix/bin/btfkit ($("$prefix/bin/btfkit" --version | head -1))"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "add $prefix/bin to PATH" ;; esac
# bash-completion loads completions on demand from the user's directory and from
# $XDG_DATA_DIRS/bash-completion/completions (/usr/local/share and /usr/share by default); the
# script also works without bash-completion, sourced from ~/.bashrc
found=no
if [ -f /usr/share/bash-completion/bash_completion ] || [ -f /etc/bash_completion ]; then
  for d in "${BASH_COMPLETION_USER_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/bash-completion}" \
           $(IFS=:; for x in ${XDG_DATA_DIRS:-/usr/local/share:/usr/share}; do echo "$x/bash-completion"; done); do
    if [ "$(cd "$d/completions" 2>/dev/null && pwd -P)" = "$(cd "$compdir" && pwd -P)" ]; then found=yes; fi
  done
fi
if [ "$found" = yes ]; then
  echo "bash completion: $compdir/btfkit (loaded by bash-completion in new shells)"
else
  echo "bash completion: add this line to ~/.bashrc:"
  echo "  source '$compdir/btfkit'"
fi
