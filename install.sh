#!/usr/bin/env bash
# Installs btfkit: the jar, a `btfkit` command on PATH, bash completion and man pages.
#   ./install.sh [PREFIX]              install (default PREFIX: ~/.local; use /usr/local as root)
#   ./install.sh --uninstall [PREFIX]  remove what an install into PREFIX put there
#   ./install.sh --deb [DIR]           build DIR/btfkit_VERSION_all.deb (default DIR: target/)
# The jar is built only when the sources changed since the last build (the rule ./btfkit follows).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
jar="$here/cli/target/btfkit.jar"

# The jar and the man pages, built when missing or older than the sources.
build() {
  "$here/btfkit" --version >/dev/null # (the launcher rebuilds when sources changed, and says so)
  if [ ! -f "$here/cli/target/man/btfkit.1" ] || [ ! -f "$here/cli/target/btfkit.classlist" ] \
      || [ ! -f "$here/cli/target/btfkit-core.classlist" ]; then
    echo "btfkit: building (man pages missing)..." >&2
    (cd "$here" && MAVEN_OPTS="${MAVEN_OPTS:-} -Djansi.noreset=true" mvn -B -q -Dstyle.color=never -DskipTests package >&2)
  fi
}

# Lays out the files under ROOT as PREFIX ($1 ROOT, $2 PREFIX as the launcher will see it; the
# launcher finds its jar relative to itself, so an extracted package runs where it lies).
stage() {
  local root="$1" share="$1/share/btfkit"
  install -d "$root/bin" "$share" "$root/share/bash-completion/completions" "$root/share/man/man1"
  install -m 0644 "$jar" "$share/btfkit.jar"
  install -m 0644 "$here/cli/target/btfkit.classlist" "$share/btfkit.classlist"
  install -m 0644 "$here/cli/target/btfkit-core.classlist" "$share/btfkit-core.classlist"
  install -m 0644 "$here/cli/src/main/dist/jvm-flags.sh" "$share/jvm-flags.sh"
  cat > "$root/bin/btfkit" <<'LAUNCHER'
#!/usr/bin/env bash
# btfkit (installed): the jar in ../share/btfkit beside this script, with btfkit's JVM flags
share="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../share/btfkit" && pwd)"
. "$share/jvm-flags.sh"
btfkit_jvm_flags "$@"
btfkit_cds "$share" "${1:-}"
exec java "${cds[@]}" "${jvm[@]}" -jar "$share/btfkit.jar" "$@"
LAUNCHER
  chmod 0755 "$root/bin/btfkit"
  java -jar "$jar" generate-completion > "$root/share/bash-completion/completions/btfkit"
  install -m 0644 "$here"/cli/target/man/*.1 "$root/share/man/man1/"
}

# The class-data-sharing archive, made for the installed jar's path (it holds the classes short
# commands load, picocli's too; a JVM of another build ignores it).
share_classes() {
  local share="$1" a
  for a in btfkit btfkit-core; do
    java -Xshare:dump -XX:SharedClassListFile="$share/$a.classlist" -XX:SharedArchiveFile="$share/$a.jsa" \
      -Xlog:cds=off -cp "$share/btfkit.jar" >/dev/null 2>&1 || rm -f "$share/$a.jsa"
  done
}

install_into() {
  local prefix="$1"
  build
  stage "$prefix"
  share_classes "$prefix/share/btfkit"
  # what --uninstall removes (only these: PREFIX is shared with other software)
  (cd "$prefix" && { echo bin/btfkit; find share/btfkit -type f ! -name installed-files; \
    echo share/bash-completion/completions/btfkit; (cd "$here/cli/target/man" && ls ./*.1) | sed 's|^\./|share/man/man1/|'; \
    echo share/btfkit/installed-files; } > share/btfkit/installed-files)
  echo "installed $prefix/bin/btfkit ($("$prefix/bin/btfkit" --version | head -1)); man btfkit"
  case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "add $prefix/bin to PATH" ;; esac
  # bash-completion loads completions on demand from the user's directory and from
  # $XDG_DATA_DIRS/bash-completion/completions (/usr/local/share and /usr/share by default); the
  # script also works without bash-completion, sourced from ~/.bashrc
  local compdir="$prefix/share/bash-completion/completions" found=no d
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
}

uninstall_from() {
  local prefix="$1" list="$1/share/btfkit/installed-files" f
  if [ ! -f "$list" ]; then
    echo "install.sh: $prefix: nothing installed here by install.sh (no $list)" >&2
    exit 2
  fi
  while IFS= read -r f; do
    case "$f" in ''|/*|*..*) continue ;; esac # (only paths below PREFIX)
    rm -f "$prefix/$f"
  done < "$list"
  rm -f "$prefix/share/btfkit/btfkit.jsa" "$prefix/share/btfkit/btfkit-core.jsa"
  rmdir "$prefix/share/btfkit" 2>/dev/null || true
  echo "removed btfkit from $prefix"
}

# btfkit_VERSION_all.deb: /usr/bin/btfkit, the jar, completion and man pages; needs a Java 17 runtime.
deb() {
  local out="$1" version stage
  build
  command -v dpkg-deb >/dev/null || { echo "install.sh: --deb needs dpkg-deb (apt-get install dpkg)" >&2; exit 2; }
  version="$(java -jar "$jar" --version | sed -n '1s/^btfkit //p')"
  version="${version//-/\~}" # 0.1.0-SNAPSHOT -> 0.1.0~SNAPSHOT: sorts before the 0.1.0 release
  stage="$(mktemp -d)"
  chmod 0755 "$stage"
  stage "$stage/usr"
  gzip -9n "$stage"/usr/share/man/man1/*.1
  install -d "$stage/DEBIAN" "$stage/usr/share/doc/btfkit"
  gzip -9nc "$here/README.md" > "$stage/usr/share/doc/btfkit/README.md.gz"
  cat > "$stage/DEBIAN/control" <<CONTROL
Package: btfkit
Version: $version
Architecture: all
Maintainer: btfkit developers <btfkit@localhost>
Depends: java17-runtime-headless
Section: devel
Priority: optional
Installed-Size: $(du -sk "$stage/usr" | cut -f1)
Description: BPF Type Format (BTF) toolkit: dump, validate, dedup, link, distill, relocate
 btfkit reads, validates, deduplicates and links BTF, distills .BTF.base from
 module BTF and relocates it onto a new vmlinux, with libbpf's semantics and
 bpftool's and pahole's spellings; man btfkit lists the commands.
CONTROL
  # the class-data-sharing archive is made where the package is installed (it is JVM-specific)
  cat > "$stage/DEBIAN/postinst" <<'POSTINST'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
  s=/usr/share/btfkit
  for a in btfkit btfkit-core; do
    java -Xshare:dump -XX:SharedClassListFile=$s/$a.classlist -XX:SharedArchiveFile=$s/$a.jsa \
      -Xlog:cds=off -cp $s/btfkit.jar >/dev/null 2>&1 || rm -f $s/$a.jsa
  done
fi
POSTINST
  printf '#!/bin/sh\nset -e\nrm -f /usr/share/btfkit/btfkit.jsa /usr/share/btfkit/btfkit-core.jsa\n' > "$stage/DEBIAN/prerm"
  chmod 0755 "$stage/DEBIAN/postinst" "$stage/DEBIAN/prerm"
  mkdir -p "$out"
  dpkg-deb --root-owner-group -Zxz --build "$stage" "$out/btfkit_${version}_all.deb" >/dev/null
  rm -rf "$stage"
  echo "built $out/btfkit_${version}_all.deb"
}

case "${1:-}" in
  --uninstall) uninstall_from "${2:-$HOME/.local}" ;;
  --deb) deb "${2:-$here/target}" ;;
  -h|--help) sed -n '2,6s/^# \{0,1\}//p' "$0" ;;
  -*) echo "install.sh: unknown option '$1' (--uninstall, --deb, --help)" >&2; exit 2 ;;
  *) install_into "${1:-$HOME/.local}" ;;
esac
